/// User-given words echoed in a message: control characters shown as `\u{..}`, so a
/// hostile argument cannot move the cursor or rewrite a CI log.
enum TerminalText {
    static func escaped(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value) {
                out += "\\u{" + String(u.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
