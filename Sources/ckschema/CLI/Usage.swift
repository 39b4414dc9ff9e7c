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

    /// A group's usage: one line per subcommand, with the options it declares; when none takes
    /// an option or a word after its own, one line (`ckschema completion bash|zsh|fish`).
    static func group(_ command: String, subcommands: [any Subcommand.Type]) -> String {
        let lines = subcommands.map { line($0.name, positionals: $0.arguments, options: $0.options) }
        if zip(lines, subcommands).allSatisfy({ $0 == $1.name }) { return "ckschema \(command) " + subcommands.map { $0.name }.joined(separator: "|") }
        return lines.map { "ckschema \(command) " + $0 }.joined(separator: "\n       ")
    }

    /// `ckschema migrate hash [--config PATH] [--migrations PATH]`: one subcommand's line.
    static func subcommand(_ command: String, _ sub: any Subcommand.Type) -> String {
        line("ckschema \(command) \(sub.name)", positionals: sub.arguments, options: sub.options)
    }

    /// The options of several subcommands, each name once (its first declaration), in an order
    /// that keeps each subcommand's: of the options whose predecessors are all placed, the
    /// one declared earliest in a subcommand's list comes next (then the earlier subcommand's).
    /// A group's `--help` table lists them so, and a refusal names the first one given.
    static func merged(_ lists: [[OptionSpec]]) -> [OptionSpec] {
        var specs: [OptionSpec] = [], key: [String: (rank: Int, list: Int, first: Int)] = [:], before: [String: Set<String>] = [:]
        for (l, list) in lists.enumerated() {
            for (i, spec) in list.enumerated() {
                if let k = key[spec.name] { key[spec.name] = (min(k.rank, i), k.list, k.first) } else {
                    key[spec.name] = (i, l, specs.count)
                    specs.append(spec)
                }
                if i > 0 { before[spec.name, default: []].insert(list[i - 1].name) }
            }
        }
        var placed: Set<String> = [], out: [OptionSpec] = []
        while out.count < specs.count {
            let left = specs.filter { !placed.contains($0.name) }
            let ready = left.filter { before[$0.name, default: []].isSubset(of: placed) }
            // Orders that contradict each other leave none ready: then the earliest left comes next.
            let next = (ready.isEmpty ? left : ready).min { a, b in
                let x = key[a.name]!, y = key[b.name]!
                return (x.rank, x.list, x.first) < (y.rank, y.list, y.first)
            }!
            placed.insert(next.name)
            out.append(next)
        }
        return out
    }
}
