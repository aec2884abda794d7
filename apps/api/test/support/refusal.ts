/** A refused call's status and problem detail, to compare in one go: `expect(refusal(r)).toEqual({ status: 409, detail: '…' })`. */
export const refusal = (r: { status: number; json: { detail?: unknown } }) => ({ status: r.status, detail: r.json.detail });
