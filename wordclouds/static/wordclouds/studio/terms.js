// A summary list's rows: [key, label, value] each a <dt> and a <dd data-key> (what the
// tests find a figure by).
export function definitions(rows) {
  return rows.flatMap(([key, label, value]) => {
    const term = document.createElement("dt");
    const detail = document.createElement("dd");
    term.textContent = label;
    detail.textContent = value;
    detail.dataset.key = key;
    return [term, detail];
  });
}
