import Foundation

/// The `options:` section of a command's `--help`, derived from its `OptionSpec`s.
enum OptionHelp {
    /// Each option's synopsis, then its help wrapped under a common column.
    static func section(_ options: [OptionSpec]) -> String {
        table("options", options.map { ($0.synopsis, $0.helpText) })
    }

    /// `title:`, then each row's left text and its help wrapped under a common column
    /// (the subcommands of a group, the options of a command).
    static func table(_ title: String, _ rows: [(left: String, text: String)]) -> String {
        guard !rows.isEmpty else { return "" }
        let left = rows.map { "  " + $0.left }
        let column = min((left.map(\.count).max() ?? 0) + 2, 40)
        var out = "\n\(title):\n"
        for (row, l) in zip(rows, left) {
            let lines = wrap(row.text, width: max(30, 96 - column))
            if l.count + 2 > column {
                out += l + "\n"
                for line in lines { out += String(repeating: " ", count: column) + line + "\n" }
            } else {
                for (i, line) in lines.enumerated() {
                    out += (i == 0 ? l.padding(toLength: column, withPad: " ", startingAt: 0) : String(repeating: " ", count: column)) + line + "\n"
                }
            }
        }
        return out
    }

    /// Words into lines of at most `width` characters (a longer word gets its own line).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
