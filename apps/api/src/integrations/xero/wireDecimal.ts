// A decimal from the domain written into JSON as a number literal, digit for digit. The value
// never becomes a float: JSON.rawJSON (Node 21+) puts the text on the wire as it is.
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

export class WireDecimal {
  readonly text: string;

  constructor(text: string) {
    if (!JSON_NUMBER.test(text)) throw new RangeError(`not a plain decimal: ${JSON.stringify(text)}`);
    this.text = text;
  }

  toJSON(): unknown {
    return rawJSON(this.text);
  }

  toString(): string {
    return this.text;
  }
}

export const wireDecimal = (text: string): WireDecimal => new WireDecimal(text);
