// The pages' dates and numbers in the page's language (<html lang>) and the shop's time zone
// (<body data-time-zone>, the SHOP_TIME_ZONE setting). Their words come from Django's
// JavaScriptCatalog (window.gettext, ngettext, interpolate), loaded by base.html before the
// pages' modules run (docs/i18n.md).

const language = document.documentElement.lang || "en";
const timeZone = document.body.dataset.timeZone || undefined;
const dateTime = new Intl.DateTimeFormat(language, {
  timeZone, year: "numeric", month: "2-digit", day: "2-digit",
  hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false,
});
const numbers = new Intl.NumberFormat(language);

export const english = language.startsWith("en");

// An ISO 8601 time from the API as the shop reads it; "" for none.
export function when(timestamp) {
  return timestamp ? dateTime.format(new Date(timestamp)) : "";
}

// A count or measure with the language's separators (12,345.6).
export function number(value) {
  return numbers.format(value);
}
