import CKSchema

// Options declared once (issue 18): each option of a command is one property of its options
// struct, `@Opt(declaration) var name: Type`. That property is the whole declaration:
//
// - its `OptionSpec` (name, value, help, default), which parsing, `--help`, the usage line,
//   the completions and the man page read, is found by reflecting a default instance;
// - its value is converted and checked when the struct is made from the parsed arguments.
//
// swift-argument-parser does the same with `@Option` and a `Decoder`; here the arguments
// being decoded reach the wrappers through a task-local (`ParsedArguments.decoding`), so no
// wrapper is ever written after it is made, and everything stays `Sendable`. docs/cli.md
// says why this shape was picked.

/// One part of an options struct that reflection finds: an option, a group of options, or
/// the positional arguments.
protocol DeclaredPart: Sendable {
    /// The options it declares, in the order help lists them.
    var specs: [OptionSpec] { get }
    /// The positional arguments it declares, for the usage line.
    var positionals: [Positional] { get }
    /// The mistake found while decoding it, if any.
    var error: UsageError? { get }
}

extension DeclaredPart {
    var specs: [OptionSpec] { [] }
    var positionals: [Positional] { [] }
}

extension ParsedArguments {
    /// The arguments being decoded into an options struct; nil while its declarations are read.
    @TaskLocal static var decoding: ParsedArguments?
}

/// One option or flag: `@Opt(CommonOptions.format) var format: OutputFormat`,
/// `@Opt(Flag("force", help: "...")) var force: Bool`, `@Opt(all: sortOption) var sort: [String]`.
@propertyWrapper
struct Opt<Value: Sendable>: DeclaredPart {
    let spec: OptionSpec
    let wrappedValue: Value
    let error: UsageError?

    var specs: [OptionSpec] { [spec] }

    /// An option with a value, converted (or refused) by its declaration.
    init(_ option: Option<Value>) {
        self.init(option.spec, default: option.defaultValue) { (a: ParsedArguments) throws(UsageError) -> Value in try a.value(option) }
    }

    /// A flag: given or not.
    init(_ flag: Flag) where Value == Bool {
        self.init(flag.spec, default: false) { (a: ParsedArguments) throws(UsageError) -> Bool in a.flag(flag) }
    }

    /// A repeatable option: every value, in the order given.
    init<T>(all option: Option<T?>) where Value == [T] {
        self.init(option.spec, default: []) { (a: ParsedArguments) throws(UsageError) -> [T] in try a.all(option) }
    }

    private init(_ spec: OptionSpec, default value: Value, read: (ParsedArguments) throws(UsageError) -> Value) {
        self.spec = spec
        guard let arguments = ParsedArguments.decoding else {
            wrappedValue = value
            error = nil
            return
        }
        do throws(UsageError) {
            wrappedValue = try read(arguments)
            error = nil
        } catch {
            wrappedValue = value
            self.error = error
        }
    }
}

/// Options several commands share, declared once in their own struct (`ReportOptions`,
/// `PullOptions`): `@Group var report: ReportOptions`. With `within:`, usage shows them
/// inside that option's brackets (`[--pull [--team-id T] ...]`): they apply only with it.
@propertyWrapper
struct Group<Options: ParsableOptions>: DeclaredPart {
    let wrappedValue: Options
    let error: UsageError?
    let within: String?

    init(within option: String? = nil) {
        within = option
        guard let arguments = ParsedArguments.decoding else {
            wrappedValue = Options()
            error = nil
            return
        }
        do throws(UsageError) {
            wrappedValue = try Options(arguments)
            error = nil
        } catch {
            wrappedValue = ParsedArguments.$decoding.withValue(nil) { Options() }
            self.error = error
        }
    }

    var specs: [OptionSpec] {
        Options.specs.map { spec in
            var s = spec
            if s.within == nil { s.within = within }
            return s
        }
    }
    var positionals: [Positional] { Options.positionals }
}

/// The words that are not options: `@Positionals(.many("FILE")) var files: [String]`. Their
/// number is checked by the command's `validate()`, which words the mistake its own way.
@propertyWrapper
struct Positionals: DeclaredPart {
    let positionals: [Positional]
    let wrappedValue: [String]
    var error: UsageError? { nil }

    init(_ positionals: Positional...) {
        self.positionals = positionals
        wrappedValue = ParsedArguments.decoding?.positionals ?? []
    }
}

/// A positional argument as a usage line shows it: `NAME`, `[SCHEMA]`, `FILE...`, `[PATH...]`.
struct Positional: Sendable, Equatable {
    var name: String
    var optional: Bool
    var repeats: Bool

    /// Exactly one.
    static func one(_ name: String) -> Positional { Positional(name: name, optional: false, repeats: false) }
    /// At most one.
    static func optional(_ name: String) -> Positional { Positional(name: name, optional: true, repeats: false) }
    /// One or more.
    static func many(_ name: String) -> Positional { Positional(name: name, optional: false, repeats: true) }
    /// Any number, none included.
    static func any(_ name: String) -> Positional { Positional(name: name, optional: true, repeats: true) }

    var usage: String {
        let word = name + (repeats ? "..." : "")
        return optional ? "[\(word)]" : word
    }
}

extension ParsableOptions {
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let decoded = ParsedArguments.$decoding.withValue(arguments) { Self() }
        if let error = decoded.parts.lazy.compactMap(\.error).first { throw error }
        let given = Set(arguments.values.keys).union(arguments.flags)
        for spec in decoded.parts.flatMap(\.specs) {
            if let other = spec.excludes, given.contains(spec.name), given.contains(other) {
                throw UsageError("--\(other) and --\(spec.name) cannot be used together")
            }
        }
        try decoded.validate()
        self = decoded
    }

    func validate() throws(UsageError) {}

    /// Every option it declares, in declaration order: what parsing and help read.
    static var specs: [OptionSpec] { declaration.parts.flatMap(\.specs) }
    /// The positional arguments it declares, for the usage line.
    static var positionals: [Positional] { declaration.parts.flatMap(\.positionals) }

    /// An instance made only to read its declarations.
    private static var declaration: Self { ParsedArguments.$decoding.withValue(nil) { Self() } }

    /// Its `@Opt`, `@Group` and `@Positionals` properties, in declaration order.
    private var parts: [any DeclaredPart] { Mirror(reflecting: self).children.compactMap { $0.value as? any DeclaredPart } }
}
