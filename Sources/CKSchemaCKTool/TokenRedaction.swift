/// The one redaction of a CloudKit management token, for everything cktool gives back:
/// its messages (`CKToolSession.run`) and the export it writes (`CKToolSession.export`, so
/// `pull` and `verify --update` never write a line that holds the token).
///
/// The token is given to cktool in its environment (`CLOUDKIT_MANAGEMENT_TOKEN`), and a
/// cktool that echoes it can do so in any form a program prints a string in (issue 35
/// point 11), each of which redaction finds:
/// - the token itself;
/// - its JSON-escaped form (`\/`, `\"`, `\\`, `\uXXXX` in either case, surrogate pairs), as a
///   JSON error body carries it;
/// - its URL-encoded form (`%XX` of each UTF-8 byte in either case, `+` for a space), as a
///   request URL or form body carries it;
/// - the token split across two or more lines (a wrapped message): a line break, and the
///   spaces or tabs that indent the next line, may stand between any two of its characters;
/// - any prefix of 12 characters or more (a clipped message, `ckmt-SECRET-4f…`): 12
///   characters of a random token are as good as a secret to no one, but they are what an
///   attacker needs to confirm a guess, and no real text holds them by chance.
/// Each character may take any of the forms independently, so a mixture is found too. Every
/// character of a found token is replaced: each line's piece of it becomes `<token>`.
public enum TokenRedaction {
    /// What stands in for the token.
    public static let placeholder = "<token>"

    /// The shortest prefix of the token that is redacted on its own (a token shorter than
    /// this is redacted only whole).
    public static let prefixLength = 12

    /// `text` with every form of `token` replaced (nothing to do for an empty token).
    public static func redact(_ text: String, token: String?) -> String {
        guard let token, !token.isEmpty else { return text }
        let found = ranges(in: text, token: token)
        guard !found.isEmpty else { return text }
        let scalars = Array(text.unicodeScalars)
        var redacted = [Bool](repeating: false, count: scalars.count)
        for r in found { for i in r { redacted[i] = true } }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if redacted[i] {
                out.append(contentsOf: placeholder.unicodeScalars)
                while i < scalars.count, redacted[i] { i += 1 }
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }

    /// The 1-based numbers of the lines of `text` that hold a piece of the token.
    public static func lines(in text: String, token: String?) -> [Int] {
        guard let token, !token.isEmpty else { return [] }
        let found = ranges(in: text, token: token)
        guard !found.isEmpty else { return [] }
        let scalars = Array(text.unicodeScalars)
        var lineOf = [Int](repeating: 0, count: scalars.count)
        var line = 1
        for (i, c) in scalars.enumerated() {
            lineOf[i] = line
            if c == "\n" { line += 1 }
        }
        var out = Set<Int>()
        for r in found { for i in r { out.insert(lineOf[i]) } }
        return out.sorted()
    }

    /// The scalar offsets of `text` (in runs, one a line) that belong to a found token.
    static func ranges(in text: String, token: String) -> [Range<Int>] {
        let scalars = Array(text.unicodeScalars)
        let wanted = Array(token.unicodeScalars)
        // The text without its line breaks and the indentation after them, each kept
        // scalar's offset in `text` beside it: a token wrapped onto the next line is one
        // run of `joined`.
        var joined: [Unicode.Scalar] = []
        var offset: [Int] = []
        joined.reserveCapacity(scalars.count)
        offset.reserveCapacity(scalars.count)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == "\n" || c == "\r" {
                i += 1
                while i < scalars.count, scalars[i] == "\n" || scalars[i] == "\r" || scalars[i] == " " || scalars[i] == "\t" { i += 1 }
                continue
            }
            joined.append(c)
            offset.append(i)
            i += 1
        }
        let needed = min(prefixLength, wanted.count)
        var found: [Range<Int>] = []
        var p = 0
        while p < joined.count {
            var q = p, matched = 0
            while matched < wanted.count, let next = match(wanted[matched], in: joined, at: q) {
                q = next
                matched += 1
            }
            guard matched >= needed, q > p else { p += 1; continue }
            // One run of `text` per line the token stands on.
            var start = offset[p], last = offset[p]
            for k in (p + 1)..<q {
                if offset[k] != last + 1 {
                    found.append(start..<(last + 1))
                    start = offset[k]
                }
                last = offset[k]
            }
            found.append(start..<(last + 1))
            p = q
        }
        return found
    }

    /// JSON's short escapes, `\/` included (Foundation writes it): the letter, what it stands for.
    private static let shortEscapes: [Unicode.Scalar: Unicode.Scalar] = ["\"": "\"", "\\": "\\", "/": "/", "n": "\n", "r": "\r", "t": "\t", "b": "\u{8}", "f": "\u{C}"]

    /// Where `c`, in one of its forms, ends when it starts at `q` of `text`; nil when it does not.
    private static func match(_ c: Unicode.Scalar, in text: [Unicode.Scalar], at q: Int) -> Int? {
        guard q < text.count else { return nil }
        let first = text[q]
        if first == c { return q + 1 }
        if first == "\\" {
            guard q + 1 < text.count else { return nil }
            let e = text[q + 1]
            if let s = shortEscapes[e], s == c { return q + 2 }
            guard e == "u", let unit = hex(text, q + 2, digits: 4) else { return nil }
            if unit == c.value { return q + 6 }
            // A scalar beyond the BMP as its surrogate pair.
            guard c.value > 0xFFFF, unit == 0xD800 + ((c.value - 0x10000) >> 10),
                  q + 7 < text.count, text[q + 6] == "\\", text[q + 7] == "u",
                  let low = hex(text, q + 8, digits: 4), low == 0xDC00 + ((c.value - 0x10000) & 0x3FF) else { return nil }
            return q + 12
        }
        if first == "+", c == " " { return q + 1 }
        if first == "%" {
            // Each UTF-8 byte of the scalar as `%XX`.
            var at = q
            for byte in String(c).utf8 {
                guard at < text.count, text[at] == "%", let v = hex(text, at + 1, digits: 2), v == UInt32(byte) else { return nil }
                at += 3
            }
            return at
        }
        return nil
    }

    /// The value of `digits` hex digits (either case) at `at`, or nil.
    private static func hex(_ text: [Unicode.Scalar], _ at: Int, digits: Int) -> UInt32? {
        guard at >= 0, at + digits <= text.count else { return nil }
        var v: UInt32 = 0
        for k in at..<(at + digits) {
            let d: UInt32
            switch text[k].value {
            case 0x30...0x39: d = text[k].value - 0x30
            case 0x41...0x46: d = text[k].value - 0x41 + 10
            case 0x61...0x66: d = text[k].value - 0x61 + 10
            default: return nil
            }
            v = v << 4 | d
        }
        return v
    }
}
