// What the orders pages share: money in yuan (the API counts fen) and times as local text.

export function yuan(fen) {
  return `¥${(fen / 100).toFixed(2)}`;
}

export function when(timestamp) {
  return timestamp ? new Date(timestamp).toLocaleString() : "";
}

export function cell(text, className) {
  const element = document.createElement("td");
  element.textContent = text;
  if (className) element.className = className;
  return element;
}
