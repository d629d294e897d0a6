// The console's only script (served as /console.js, same origin, allowed by the CSP): the
// queue's filter selects apply as soon as they change. Everything works without it.
export const CONSOLE_SCRIPT = `"use strict";
document.querySelectorAll("form.filters select").forEach(function (select) {
  select.addEventListener("change", function () { select.form.submit(); });
});
`;
