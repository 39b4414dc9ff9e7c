/// Usage lines, generated from what a command declares: its positional arguments, then its
/// options in the order help lists them. No usage line is written by hand, so none can leave
/// an option out (validate's once named 7 of its 12).
enum Usage {
    /// `ckschema validate FILE... [--schema SCHEMA] [--env production|development] ...`.
    static func line(_ words: String, positionals: [Positional], options: [OptionSpec]) -> String {
        ([words] + positionals.map(\.usage) + self.options(options)).joined(separator: " ")
    }

    /// Each option's usage word; an option declared `within` another stands inside its brackets.
    static func options(_ options: [OptionSpec]) -> [String] {
        let names = Set(options.map(\.name))
        let alternatives = options.filter { $0.excludes.map(names.contains) ?? false }
        func words(within parent: String?) -> [String] {
            options.filter { $0.within.flatMap { names.contains($0) ? $0 : nil } == parent && !alternatives.map(\.name).contains($0.name) }
                .map { spec in
                    let others = alternatives.filter { $0.excludes == spec.name }
                    guard !others.isEmpty else { return spec.usage(words(within: spec.name)) }
                    // `[--check | -w]`: one bracket, the choices inside.
                    let choices = ([spec] + others).map { o in String(o.usage(words(within: o.name)).dropFirst().dropLast()) }
                    return "[" + choices.joined(separator: " | ") + "]"
                }
        }
        return words(within: nil)
    }

    /// A group's usage: one line per subcommand, with the options that subcommand takes; when
    /// none takes an option or a word after its own, one line (`ckschema completion bash|zsh|fish`).
    static func group(_ command: String, options: [OptionSpec], subcommands: [any Subcommand.Type]) -> String {
        let lines = subcommands.map { sub -> (word: String, rest: String) in
            let unknown = (sub.accepts ?? []).subtracting(options.map(\.name))
            precondition(unknown.isEmpty, "\(command) \(sub.name) accepts \(unknown.sorted()), which \(command) does not declare")
            let taken = options.filter { sub.accepts?.contains($0.name) ?? true }
            return (sub.name, line(sub.name, positionals: sub.arguments, options: taken))
        }
        if lines.allSatisfy({ $0.word == $0.rest }) { return "ckschema \(command) " + lines.map(\.word).joined(separator: "|") }
        return lines.map { "ckschema \(command) " + $0.rest }.joined(separator: "\n       ")
    }
}
