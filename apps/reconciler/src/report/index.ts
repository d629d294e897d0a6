// Reports: the data from the finance views, as terminal text or a self-contained HTML page.

export { renderHtml } from "./render-html";
export { renderText } from "./render-text";
export { loadReport, type ReportData } from "./report-data";
