// The GST test vectors (GST Act s 19O rounding: a fraction of a cent of half a
// cent or less is dropped, more than half is a cent), as data. Tests run them through the code the
// product uses — the domain's document totals, and an invoice created through the API.

/** [id, 'excl' | 'incl', one line's amount, the GST it carries]. */
export const S19O_VECTORS: readonly (readonly [id: string, kind: 'excl' | 'incl', amount: string, gst: string])[] = [
  ['G1', 'excl', '100.00', '15.00'],
  ['G2', 'incl', '115.00', '15.00'],
  ['G3', 'excl', '1500.00', '225.00'],
  ['G4', 'incl', '1725.00', '225.00'],
  ['G5', 'incl', '230.00', '30.00'],
  ['G6', 'excl', '9000.00', '1350.00'],
  ['G7', 'incl', '200.00', '26.09'],
  ['G8', 'incl', '100.00', '13.04'],
  ['G9', 'incl', '1000.00', '130.43'],
  ['G10', 'incl', '1000.01', '130.44'],
  ['G11', 'incl', '1150.00', '150.00'],
  ['G12', 'incl', '45.99', '6.00'],
  ['G13', 'incl', '0.08', '0.01'],
  ['G14', 'incl', '0.01', '0.00'],
  ['G15', 'excl', '0.10', '0.01'],
  ['G16', 'excl', '0.30', '0.04'],
  ['G17', 'excl', '10.10', '1.51'],
  ['G18', 'excl', '33.30', '4.99'],
  ['G19', 'excl', '123.45', '18.52'],
  ['G20', 'excl', '19.99', '3.00'],
];

/** Three-line documents where the two rounding settings differ (G21–G23): [lines' kind, amount each, GST per line, GST on the total]. */
export const S19O_THREE_LINE_VECTORS: readonly (readonly [id: string, kind: 'excl' | 'incl', amount: string, perLine: string, onTotal: string])[] = [
  ['G21', 'excl', '0.10', '0.03', '0.04'],
  ['G22', 'incl', '10.00', '3.90', '3.91'],
  ['G23', 'excl', '19.99', '9.00', '9.00'],
];
