/// Decoding the escapes of a JSON string (RFC 8259 §7). One routine for every JSON reader:
/// the record checker (`ckschema validate`, over `JSONTape` tokens), `records import` (the
/// same tokens, strict) and `JSONValue.parse` (the store's fields column), so that they
/// cannot come to disagree about what a string says.
package enum JSONString {
    /// Why a string could not be decoded, and where: a byte offset into the bytes given.
    package struct EscapeError: Error {
        package var message: String
        package var offset: Int
    }

    /// The value of a hexadecimal digit, or -1.
    @inline(__always) package static func hexValue(_ c: UInt8) -> Int {
        switch c {
        case 0x30...0x39: Int(c) - 0x30
        case 0x41...0x46: Int(c) - 0x41 + 10
        case 0x61...0x66: Int(c) - 0x61 + 10
        default: -1
        }
    }

    /// Decodes string content from `bytes[i]` up to the end of `bytes` (returns false) or, when
    /// `strict`, an unescaped `"` (left at `i`; returns true), appending the UTF-8 text to `out`.
    ///
    /// `strict` (the store): a control character, an unknown escape, a bad `\u` escape or a
    /// surrogate without its other half throws. Otherwise (the checker, whose tape already
    /// validated the grammar) nothing throws: a high surrogate waits for the next low one and
    /// is dropped without it, a low surrogate alone becomes U+FFFD, and anything else
    /// unexpected is kept as it is.
    package static func decode(_ bytes: UnsafeRawBufferPointer, _ i: inout Int, into out: inout [UInt8], strict: Bool) throws(EscapeError) -> Bool {
        var pendingHigh: UInt32?
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\""), strict { return true }
            if c < 0x20, strict { throw EscapeError(message: "control character in a string", offset: i) }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            guard i + 1 < bytes.count else {
                if !strict { out.append(c) }
                i += 1
                return false
            }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u") where strict:
                var cp = try hex4(bytes, &i)
                if cp >= 0xD800, cp < 0xDC00 {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw EscapeError(message: "lone surrogate", offset: i)
                    }
                    i += 2
                    let lo = try hex4(bytes, &i)
                    guard lo >= 0xDC00, lo < 0xE000 else { throw EscapeError(message: "lone surrogate", offset: i) }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                } else if cp >= 0xDC00, cp < 0xE000 { throw EscapeError(message: "lone surrogate", offset: i) }
                guard let scalar = Unicode.Scalar(cp) else { throw EscapeError(message: "invalid escape", offset: i) }
                UTF8.encode(scalar) { out.append($0) }
            case UInt8(ascii: "u"):
                var v: UInt32 = 0
                for k in 0..<4 where i + k < bytes.count { v = v << 4 | UInt32(max(0, hexValue(bytes[i + k]))) }
                i += 4
                if v >= 0xD800, v < 0xDC00 { pendingHigh = v; continue }
                if v >= 0xDC00, v < 0xE000, let h = pendingHigh {
                    v = 0x10000 + ((h - 0xD800) << 10) + (v - 0xDC00)
                    pendingHigh = nil
                }
                if let scalar = Unicode.Scalar(v) { UTF8.encode(scalar) { out.append($0) } }
                else { out.append(contentsOf: [0xEF, 0xBF, 0xBD]) }
            default:
                if strict { throw EscapeError(message: "invalid escape", offset: i) }
                out.append(e)
            }
        }
        return false
    }

    /// Four hex digits at `i` (strict mode).
    private static func hex4(_ bytes: UnsafeRawBufferPointer, _ i: inout Int) throws(EscapeError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw EscapeError(message: "invalid \\u escape", offset: i) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let d = hexValue(bytes[i])
            guard d >= 0 else { throw EscapeError(message: "invalid \\u escape", offset: i) }
            v = v * 16 + UInt32(d)
            i += 1
        }
        return v
    }

    /// The text of string content whose grammar is already validated (the checker's tokens).
    package static func unescaped(_ raw: UnsafeRawBufferPointer) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        // Lenient decoding never throws; the fallback only satisfies the type checker.
        _ = try? decode(raw, &i, into: &out, strict: false)
        return String(decoding: out, as: UTF8.self)
    }
}
