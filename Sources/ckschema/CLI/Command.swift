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
/// (its first word picks a `Subcommand`); both derive `options` and `execute`.
protocol Command: Sendable {
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// `ckschema lint [SCHEMA...] [--format F] ...`, generated from the declarations (`Usage`).
    static var usage: String { get }
    /// The rest of `--help`: what it does, an example. Options and subcommands are added from their declarations.
    static var help: String { get }
    /// Every option it accepts, in the order help lists them.
    static var options: [OptionSpec] { get }
    /// The words it takes first (`migrate new|apply|...`), for help, completions and the man page.
    static var subcommands: [any Subcommand.Type] { get }
    /// Converts and checks the parsed arguments, then runs.
    static func execute(_ arguments: ParsedArguments, _ io: inout Output) throws -> ExitCode
}

/// A command's options, decoded from its arguments and checked (values, positionals,
/// options that conflict) before it runs; a mistake is a `UsageError`: exit 2, nothing done.
protocol ArgumentsDecodable: Sendable {
    init(_ arguments: ParsedArguments) throws(UsageError)
}

/// Options declared once, as `@Opt`, `@Group` and `@Positionals` properties (Declared.swift):
/// the declarations parsing, help, usage, completions and the man page read are found by
/// reflecting `init()`'s instance, and `init(_ arguments:)` decodes them, then `validate()`s.
protocol ParsableOptions: ArgumentsDecodable {
    /// An instance with every option at its default (synthesized: every property is declared).
    init()
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
    static func execute(_ arguments: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        try run(try Options(arguments), &io)
    }
}

/// A command whose first word picks a subcommand (`migrate new`, `records import`); the
/// group's options are shared by its subcommands.
protocol CommandGroup: Command {
    associatedtype Options: ParsableOptions
    static var subcommandTypes: [any Subcommand.Type] { get }
    /// The mistake of naming no subcommand, or an unknown one.
    static func missingSubcommand() -> UsageError
    static func unknownSubcommand(_ word: String) -> UsageError
}

extension CommandGroup {
    static var options: [OptionSpec] { Options.specs }
    static var usage: String { Usage.group(name, options: options, subcommands: subcommandTypes) }
    static var subcommands: [any Subcommand.Type] { subcommandTypes }
    static func missingSubcommand() -> UsageError {
        UsageError("\(name) needs a subcommand: \(UsageError.list(subcommandTypes.map { $0.name }))")
    }
    static func unknownSubcommand(_ word: String) -> UsageError {
        UsageError("unknown \(name) subcommand '\(word)'\(Suggest.phrase(for: word, in: subcommandTypes.map { $0.name }))")
    }
    static func execute(_ arguments: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard let word = arguments.positionals.first else { throw missingSubcommand() }
        guard let sub = subcommandTypes.first(where: { $0.name == word }) else { throw unknownSubcommand(word) }
        // The group parses its subcommands' options together; each subcommand takes only its
        // own (`migrate hash --dry-run` is a mistake, not a flag silently ignored).
        if let accepted = sub.accepts {
            let given = Set(arguments.values.keys).union(arguments.flags)
            let ordered = options.map(\.name).filter { given.contains($0) && !accepted.contains($0) }
            if let first = ordered.first {
                let takes = options.map(\.name).filter { accepted.contains($0) }.map { "--" + $0 }
                throw UsageError("\(name) \(word) does not take --\(first)" + (takes.isEmpty ? "" : "; it takes \(UsageError.list(takes))"))
            }
        }
        var rest = arguments
        rest.positionals.removeFirst()
        return try sub.execute(rest, &io)
    }
}

/// One subcommand of a group: its word, one line of help, and what it does with its options
/// (decoded from the group's options and the positionals after its word).
protocol Subcommand: Sendable {
    associatedtype Options: ArgumentsDecodable
    static var name: String { get }
    /// The words after its own (`new NAME`'s NAME), for usage and the help's subcommand list.
    static var arguments: [Positional] { get }
    static var summary: String { get }
    /// The group's options this subcommand reads (names without dashes); nil: all of them.
    /// Any other option given with it is refused before anything runs.
    static var accepts: Set<String>? { get }
    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode
}

extension Subcommand {
    static var arguments: [Positional] { [] }
    /// `new NAME`: its word and what follows it.
    static var synopsis: String { ([name] + arguments.map(\.usage)).joined(separator: " ") }
    static var accepts: Set<String>? { nil }
    static func execute(_ arguments: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        try run(try Options(arguments), &io)
    }
}

/// A group without options of its own (`ckschema completion`).
struct NoOptions: ParsableOptions {
    @Positionals() var words: [String]
}
