/// An option a command accepts: `--name value`, `--name=value`, or a flag `--name`.
/// The one declaration that parsing, `--help`, shell completions and the man page read,
/// so none of them can drift from what the command accepts.
struct OptionSpec: Sendable {
    var name: String
    var short: Character?
    var takesValue: Bool
    /// May be given more than once.
    var repeatable = false
    /// One line for `--help`, completions and the man page.
    var help = ""
    /// The value's placeholder (`PATH`, `N`); unused when `values` lists the choices.
    var valueName = "VALUE"
    /// The values it accepts, when they are a fixed list (completions offer them).
    var values: [String] = []
    /// What applies when the option is not given, shown in help; nil when nothing does.
    var defaultValue: String?
    /// Its value is a path (completions offer files).
    var isPath = false
    /// Its value is a name from ckschema.yaml's schemas (completions ask `ckschema completion names`).
    var names: CompletedNames?
    /// The command refuses to run without it: usage shows it without brackets.
    var required = false
    /// The option it applies with (`--offline` with `--dry-run`): usage shows it inside that one's brackets.
    var within: String?
    /// The option it cannot be given with (`--write` with `--check`): usage shows the two as
    /// one choice, `[--check | -w]`, and decoding refuses both.
    var excludes: String?

    /// `--format text|json`, `--store PATH`, `-o, --output FILE` or `--force`.
    var synopsis: String {
        var s = short.map { "-\($0), " } ?? ""
        s += "--" + name
        if takesValue { s += " " + valueSyntax }
        return s
    }

    /// `[--format text|json]`, `[-o FILE]`, `--zone Z`, `[--sort FIELD]...`: how a usage line shows it
    /// (the short name when it has one, with the options that apply only with it inside its brackets).
    func usage(_ inner: [String] = []) -> String {
        var word = short.map { "-\($0)" } ?? "--" + name
        if takesValue { word += " " + valueSyntax }
        word = ([word] + inner).joined(separator: " ")
        if !required { word = "[\(word)]" }
        return repeatable ? word + "..." : word
    }

    /// `text|json|github` for a value list, else the placeholder.
    var valueSyntax: String { values.isEmpty ? valueName : values.joined(separator: "|") }

    /// The help line's text, with the default.
    var helpText: String { help + (defaultValue.map { " (default: \($0))" } ?? "") }
}

/// The arguments of one command, split by their dashes as swift-argument-parser's
/// `SplitArguments` does: options by name, `--` ends options, `-` alone is a positional.
struct ParsedArguments: Sendable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// The names of the options it was parsed against: reading another is a programmer's mistake.
    var declared: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    static func parse(_ args: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var out = ParsedArguments(declared: Set(options.map(\.name)))
        var i = 0
        var onlyPositionals = false
        func spec(named name: String) throws(UsageError) -> OptionSpec {
            if let s = options.first(where: { $0.name == name }) { return s }
            let names = options.map { "--" + $0.name }
            let hint = Suggest.closestOption("--" + name, in: names)
            throw UsageError("unknown option '--\(name)'\(hint)")
        }
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") { out.positionals.append(a); continue }
            if a == "--" { onlyPositionals = true; continue }
            var name: String
            var inline: String?
            if a.hasPrefix("--") {
                let body = a.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inline = String(body[body.index(after: eq)...])
                } else { name = String(body) }
            } else {
                let body = a.dropFirst()
                guard body.count == 1, let s = options.first(where: { $0.short == body.first }) else {
                    throw UsageError("unknown option '\(a)'")
                }
                name = s.name
            }
            let s = try spec(named: name)
            if s.takesValue {
                let v: String
                if let inline { v = inline } else {
                    guard i < args.count else { throw UsageError("option '--\(name)' needs a value") }
                    v = args[i]
                    i += 1
                }
                if !s.repeatable && out.values[name] != nil { throw UsageError("option '--\(name)' is given twice") }
                out.values[name, default: []].append(v)
            } else {
                if inline != nil { throw UsageError("option '--\(name)' takes no value") }
                out.flags.insert(name)
            }
        }
        return out
    }

    /// Where `parse` would find the first positional argument of `args`: the first word that is
    /// not an option, an option's value or `--`; nil when there is none.
    static func firstPositional(in args: [String], options: [OptionSpec]) -> Int? {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" { return i + 1 < args.count ? i + 1 : nil }
            if a == "-" || !a.hasPrefix("-") { return i }
            i += 1
            let spec = a.hasPrefix("--") ? options.first { $0.name == a.dropFirst(2) }
                : a.count == 2 ? options.first { $0.short == a.last } : nil
            if spec?.takesValue == true, !a.contains("=") { i += 1 }
        }
        return nil
    }
}

/// A mistake in the command line: exit 2 with the usage line.
struct UsageError: Error {
    var message: String
    /// The usage line to show instead of the command's (a subcommand's own).
    var usage: String?
    init(_ message: String) { self.message = message }

    /// `a, b or c`.
    static func list(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }
}

import CKSchema

extension Suggest {
    static func closestOption(_ word: String, in names: [String]) -> String {
        closest(to: word, in: names).map { "; did you mean '\($0)'?" } ?? ""
    }
}
