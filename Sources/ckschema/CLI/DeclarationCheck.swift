/// Mistakes in how options are declared, which no command line would show a user:
///
/// - a name, long (`--config`) or short (`-o`), declared twice in one command or subcommand,
///   the options of its `@Group`s included: parsing would take the first declaration, and
///   the property of the second would never get a value;
/// - two subcommands of one group declaring one name differently (another short name, value,
///   help): the group parses a command line against all its subcommands' options to find the
///   subcommand's word, and its `--help` lists each name once.
///
/// They are functions of the declarations alone, so a test can run them on any options struct
/// or command, a deliberately wrong one included; `TypedOptionsTests` runs `problems` on every
/// command and subcommand of `CLI.commands`.
enum DeclarationCheck {
    /// The names (`--config`, `-o`) declared more than once in `specs`, each once, in order.
    static func duplicateNames(_ specs: [OptionSpec]) -> [String] {
        var seen: Set<String> = [], twice: [String] = []
        for spec in specs {
            for name in ["--" + spec.name] + (spec.short.map { ["-\($0)"] } ?? []) where !seen.insert(name).inserted && !twice.contains(name) {
                twice.append(name)
            }
        }
        return twice
    }

    /// The names an options struct declares more than once, its groups' options included.
    static func duplicateNames<Options: ParsableOptions>(_ options: Options.Type) -> [String] { duplicateNames(Options.specs) }

    /// The names that several lists (a group's subcommands) declare differently, each once, in
    /// order: a long name with another short name, value or help, or a short name on two long ones.
    static func conflicts(_ lists: [[OptionSpec]]) -> [String] {
        var first: [String: OptionSpec] = [:], long: [Character: String] = [:], out: [String] = []
        func add(_ name: String) { if !out.contains(name) { out.append(name) } }
        for spec in lists.joined() {
            if let other = first[spec.name] {
                if other.synopsis != spec.synopsis || other.helpText != spec.helpText || other.repeatable != spec.repeatable { add("--" + spec.name) }
            } else { first[spec.name] = spec }
            if let short = spec.short {
                if let name = long[short], name != spec.name { add("-\(short)") } else { long[short] = spec.name }
            }
        }
        return out
    }

    /// Every mistake in the declarations of `commands` and their subcommands, one line each
    /// (`migrate new declares --config twice`); none when all are right.
    static func problems(_ commands: [any Command.Type]) -> [String] {
        var out: [String] = []
        for c in commands {
            if c.subcommands.isEmpty { out += duplicateNames(c.options).map { "\(c.name) declares \($0) twice" } }
            for sub in c.subcommands { out += duplicateNames(sub.options).map { "\(c.name) \(sub.name) declares \($0) twice" } }
            out += conflicts(c.subcommands.map { $0.options }).map { "the subcommands of \(c.name) declare \($0) differently" }
        }
        return out
    }
}
