import CKSchema

/// The exit codes of the CI contract.
enum ExitCode: Int32 {
    /// Nothing at or above the failing severity.
    case success = 0
    /// The check ran and found problems.
    case findings = 1
    /// The tool could not do its job: bad arguments, unreadable or malformed input.
    case failure = 2

    /// The worse of two outcomes.
    func worst(_ other: ExitCode) -> ExitCode { rawValue >= other.rawValue ? self : other }
}

/// What `ckschema` lists: a command's name, help and options, and how it runs its arguments.
/// A command is either an `OptionsCommand` (typed options, then `run`) or a `CommandGroup`
/// (its first word picks a `Subcommand`, which has typed options of its own); both derive
/// `options`, `usage` and `execute`.
protocol Command: Sendable {
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// `ckschema lint [SCHEMA...] [--format F] ...`, generated from the declarations (`Usage`).
    static var usage: String { get }
    /// The rest of `--help`: what it does, an example. Options and subcommands are added from their declarations.
    static var help: String { get }
    /// Every option it accepts, in the order help lists them (a group: every option of its
    /// subcommands, each once).
    static var options: [OptionSpec] { get }
    /// The words it takes first (`migrate new|apply|...`), for help, completions and the man page.
    static var subcommands: [any Subcommand.Type] { get }
    /// Parses and checks its arguments (the words after its name), then runs.
    static func execute(_ arguments: [String], _ io: inout Output) throws -> ExitCode
    /// What its first positional names, when completions can offer it (`query TYPE`).
    static var positionalNames: CompletedNames? { get }
}

extension Command {
    static var positionalNames: CompletedNames? { nil }
}

/// Options declared once, as `@Opt`, `@Group` and `@Positionals` properties (Declared.swift):
/// the declarations parsing, help, usage, completions and the man page read are found by
/// reflecting `init()`'s instance, and `init(_ arguments:)` decodes them (values, positionals,
/// options that conflict), then `validate()`s; a mistake is a `UsageError`: exit 2, nothing done.
protocol ParsableOptions: Sendable {
    /// An instance with every option at its default (synthesized: every property is declared).
    init()
    /// Decoded from parsed arguments (Declared.swift gives it).
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Checks that need several values or the positionals, worded for the command; runs after
    /// every option is decoded.
    func validate() throws(UsageError)
}

/// A command that runs on its typed options.
protocol OptionsCommand: Command {
    associatedtype Options: ParsableOptions
    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode
}

extension OptionsCommand {
    static var options: [OptionSpec] { Options.specs }
    static var usage: String { Usage.line("ckschema " + name, positionals: Options.positionals, options: options) }
    static var subcommands: [any Subcommand.Type] { [] }
    static func execute(_ arguments: [String], _ io: inout Output) throws -> ExitCode {
        let parsed = try ParsedArguments.parse(arguments, options: options)
        io.reporting(parsed, command: name)
        return try run(try Options(parsed), &io)
    }
}

extension Output {
    /// Remembers the `--format` a command's parsed arguments give (when it takes one), for
    /// the report of an input error (`CLI.run`).
    mutating func reporting(_ parsed: ParsedArguments, command: String) {
        guard parsed.declared.contains("format"), let word = parsed.value("format"), let format = OutputFormat(rawValue: word) else { return }
        reportFormat = format
        reportCommand = command
    }
}

/// A command whose first word picks a subcommand (`migrate new`, `records import`). The group
/// has no options of its own: each subcommand declares the ones it takes, in its own options
/// struct, and is parsed against those alone.
protocol CommandGroup: Command {
    static var subcommandTypes: [any Subcommand.Type] { get }
    /// Subcommands it runs but does not list (help, usage, completions and the man page leave
    /// them out): plumbing only its own scripts call (`completion names`). They take no options
    /// (the group parses a command line against its listed subcommands' options), only words.
    static var hiddenSubcommandTypes: [any Subcommand.Type] { get }
    /// The mistake of naming no subcommand, or an unknown one.
    static func missingSubcommand() -> UsageError
    static func unknownSubcommand(_ word: String) -> UsageError
}

extension CommandGroup {
    static var hiddenSubcommandTypes: [any Subcommand.Type] { [] }
    /// Every subcommand's options, each name once (`Usage.merged`: each subcommand's order kept).
    static var options: [OptionSpec] { Usage.merged(subcommandTypes.map { $0.options }) }
    static var usage: String { Usage.group(name, subcommands: subcommandTypes) }
    static var subcommands: [any Subcommand.Type] { subcommandTypes }
    static func missingSubcommand() -> UsageError {
        UsageError("\(name) needs a subcommand: \(UsageError.list(subcommandTypes.map { $0.name }))")
    }
    static func unknownSubcommand(_ word: String) -> UsageError {
        UsageError("unknown \(name) subcommand '\(word)'\(Suggest.phrase(for: word, in: subcommandTypes.map { $0.name }))")
    }

    /// The subcommand the arguments name (their first word that is not an option or an
    /// option's value, as `execute` finds it), and where it stands; nil when there is none.
    static func subcommand(in arguments: [String]) -> (type: any Subcommand.Type, index: Int)? {
        guard let i = ParsedArguments.firstPositional(in: arguments, options: options) else { return nil }
        return (subcommandTypes + hiddenSubcommandTypes).first { $0.name == arguments[i] }.map { ($0, i) }
    }

    /// `ckschema migrate hash [--config PATH] [--migrations PATH]`: the line of `sub` alone.
    static func usage(of sub: any Subcommand.Type) -> String { Usage.subcommand(name, sub) }

    static func execute(_ arguments: [String], _ io: inout Output) throws -> ExitCode {
        // Parsed first against every subcommand's options, so that an option none of them
        // takes is unknown (with the closest name offered) and the subcommand's word is found
        // wherever it stands, as when the group declared them all.
        let all = try ParsedArguments.parse(arguments, options: options)
        guard let word = all.positionals.first else { throw missingSubcommand() }
        guard let found = subcommand(in: arguments), found.type.name == word else { throw unknownSubcommand(word) }
        let (sub, index) = found
        do {
            // Each subcommand takes only its own (`migrate hash --dry-run` is a mistake, not a
            // flag silently ignored), then is parsed against its own declaration alone.
            let own = sub.options.map(\.name)
            let given = Set(all.values.keys).union(all.flags)
            if let first = options.map(\.name).first(where: { given.contains($0) && !own.contains($0) }) {
                throw UsageError("\(name) \(word) does not take --\(first)" + (own.isEmpty ? "" : "; it takes \(UsageError.list(own.map { "--" + $0 }))"))
            }
            var rest = arguments
            rest.remove(at: index)
            let parsed = try ParsedArguments.parse(rest, options: sub.options)
            io.reporting(parsed, command: "\(name) \(word)")
            return try sub.execute(parsed, &io)
        } catch var e as UsageError {
            // The subcommand's own usage line; a subcommand that takes nothing (`completion
            // bash`) is best explained by the group's.
            if e.usage == nil, !sub.options.isEmpty || !sub.arguments.isEmpty { e.usage = usage(of: sub) }
            throw e
        }
    }
}

/// One subcommand of a group: its word, one line of help, and its own options struct, from
/// which its usage line, `--help`, completions and man page section are generated.
protocol Subcommand: Sendable {
    associatedtype Options: ParsableOptions
    static var name: String { get }
    static var summary: String { get }
    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode
}

extension Subcommand {
    /// Every option it takes, in the order help lists them.
    static var options: [OptionSpec] { Options.specs }
    /// The words after its own (`new NAME`'s NAME), from its `@Positionals`.
    static var arguments: [Positional] { Options.positionals }
    /// `new NAME`: its word and what follows it.
    static var synopsis: String { ([name] + arguments.map(\.usage)).joined(separator: " ") }
    static func execute(_ arguments: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        try run(try Options(arguments), &io)
    }
}
