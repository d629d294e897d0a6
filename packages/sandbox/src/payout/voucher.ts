/**
 * The electronic receipt of a successful payout: a small, valid, deterministic PDF naming the
 * payout, served inline (Base64 `content`) by txn/queryVoucher and as a file by the admin route
 * GET /__sandbox/payout/vouchers/:payoutId.pdf, which `voucherUrl` points at.
 */
import type { TransferRecord } from "./payout-state";

export function voucherFileName(payoutId: string): string {
  return `voucher-${payoutId}.pdf`;
}

/** The voucher route under the sandbox origin (path-absolute when the origin is unknown). */
export function voucherUrl(origin: string | undefined, payoutId: string): string {
  return `${origin ?? ""}/__sandbox/payout/vouchers/${voucherFileName(payoutId)}`;
}

/** A one-page PDF listing the payout's key fields (ASCII only, so byte offsets are lengths). */
export function voucherPdf(record: TransferRecord): Buffer {
  const lines = [
    "Payout voucher (sandbox)",
    `payoutId: ${record.payoutId}`,
    `requestId: ${record.requestId}`,
    `beneficiaryId: ${record.beneficiaryId ?? ""}`,
    `source: ${record.sourceAmount ?? ""} ${record.sourceCurrency ?? ""}`,
    `target: ${record.targetAmount ?? ""} ${record.targetCurrency ?? ""}`,
    `fee: ${record.fee ?? ""} ${record.feeCurrency ?? ""}`,
    `finished: ${record.finishTime ?? ""} UTC`,
  ];
  const pdfText = (s: string) =>
    s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, "?");
  const text = lines.map(
    (line, i) => `BT /F1 11 Tf 50 ${780 - i * 18} Td (${pdfText(line)}) Tj ET`,
  );
  const stream = text.join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}
