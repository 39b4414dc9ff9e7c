import CKSchema

/// One option of a command, typed: its declaration (`spec`, which parsing, `--help`, the
/// usage line, completions and the man page read) and how its text becomes a `Value`, with
/// the message for a value it refuses. An options struct declares it once, as a property
/// `@Opt(option) var name: Value` (Declared.swift), so every value is converted and checked
/// before the command runs.
struct Option<Value: Sendable>: Sendable {
    var spec: OptionSpec
    /// The value when the option is not given (nil when `Value` is optional).
    var defaultValue: Value
    var convert: @Sendable (String) throws(UsageError) -> Value
}

/// A flag: `--force`, present or not.
struct Flag: Sendable {
    var spec: OptionSpec

    init(_ name: String, short: Character? = nil, help: String) {
        spec = OptionSpec(name: name, short: short, takesValue: false, help: help)
    }

}

/// A declaration whose `OptionSpec` can be marked for usage (`Option`, `Flag`).
protocol SpecMarkable {
    var spec: OptionSpec { get set }
}

extension SpecMarkable {
    /// The same declaration with its spec changed.
    private func marked(_ change: (inout OptionSpec) -> Void) -> Self {
        var d = self
        change(&d.spec)
        return d
    }

    /// Shown in usage inside `option`'s brackets: it applies only with it.
    func within(_ option: String) -> Self { marked { $0.within = option } }
    /// Refused with `option`, and shown in usage as the other choice: `[--check | -w]`.
    func excluding(_ option: String) -> Self { marked { $0.excludes = option } }
    /// Shown in usage without brackets; the command's `validate()` refuses to run without it,
    /// in its own words.
    func required() -> Self { marked { $0.required = true } }
    /// Completed with the names of the repository's record types, zones or migrations.
    func completing(_ names: CompletedNames) -> Self { marked { $0.names = names } }
}

extension Flag: SpecMarkable {}
extension Option: SpecMarkable {}

extension Option {
    /// The same option with a value when it is not given.
    func or<T: Sendable>(_ value: T) -> Option<T> where Value == T? {
        let convert = self.convert
        // A conversion returns a value or throws; nil only ever stands for "not given".
        return Option<T>(spec: spec, defaultValue: value) { (text: String) throws(UsageError) -> T in try convert(text)! }
    }

    /// Text taken as it is (`--zone Z`, `--store PATH`).
    static func text(_ name: String, short: Character? = nil, help: String, valueName: String = "VALUE",
                     default shown: String? = nil, isPath: Bool = false, repeatable: Bool = false) -> Self where Value == String? {
        Option(spec: OptionSpec(name: name, short: short, takesValue: true, repeatable: repeatable, help: help,
                                         valueName: valueName, defaultValue: shown, isPath: isPath),
                        defaultValue: nil) { $0 }
    }

    /// A path (`--config PATH`): text that completions complete as a file.
    static func path(_ name: String, short: Character? = nil, help: String, valueName: String = "PATH", default shown: String? = nil) -> Self where Value == String? {
        text(name, short: short, help: help, valueName: valueName, default: shown, isPath: true)
    }

    /// One value of a fixed list, refused as `'x' is not <noun>; use a, b or c`
    /// (with `suggest`, the closest value is offered first).
    static func choice<T: RawRepresentable & Sendable>(_ name: String, help: String, values: [T], default shown: String? = nil,
                                                        noun: String, suggest: Bool = false) -> Self where Value == T?, T.RawValue == String {
        let words = values.map(\.rawValue)
        return Option(spec: OptionSpec(name: name, short: nil, takesValue: true, help: help, values: words, defaultValue: shown),
                          defaultValue: nil) { (text: String) throws(UsageError) -> T? in
            if words.contains(text), let v = T(rawValue: text) { return v }
            let hint = suggest ? Suggest.phrase(for: text, in: words) : ""
            throw UsageError("'\(text)' is not \(noun)\(hint); use \(UsageError.list(words))")
        }
    }

    /// A number, refused with `message(text)` when it does not parse or is not `valid`.
    static func number<T: LosslessStringConvertible & Sendable>(_ name: String, short: Character? = nil, help: String, valueName: String = "N",
                                                               default shown: String? = nil, valid: @escaping @Sendable (T) -> Bool,
                                                               message: @escaping @Sendable (String) -> String) -> Self where Value == T? {
        Option(spec: OptionSpec(name: name, short: short, takesValue: true, help: help, valueName: valueName, defaultValue: shown),
                   defaultValue: nil) { (text: String) throws(UsageError) -> T? in
            guard let n = T(text), valid(n) else { throw UsageError(message(text)) }
            return n
        }
    }

    /// A positive whole number (`--batch N`).
    static func positive(_ name: String, short: Character? = nil, help: String, default shown: String? = nil) -> Self where Value == Int? {
        number(name, short: short, help: help, default: shown, valid: { $0 > 0 },
               message: { "--\(name) needs a positive whole number, not '\($0)'" })
    }
}

extension ParsedArguments {
    /// The option's value, converted, or its default when it is not given.
    func value<V>(_ option: Option<V>) throws(UsageError) -> V {
        precondition(declared.contains(option.spec.name), "--\(option.spec.name) is read but not declared by the command's options")
        guard let text = value(option.spec.name) else { return option.defaultValue }
        return try option.convert(text)
    }

    /// Every value of a repeatable option, converted, in the order given.
    func all<T>(_ option: Option<T?>) throws(UsageError) -> [T] {
        precondition(declared.contains(option.spec.name), "--\(option.spec.name) is read but not declared by the command's options")
        var out: [T] = []
        for text in all(option.spec.name) { if let v = try option.convert(text) { out.append(v) } }
        return out
    }

    func flag(_ flag: Flag) -> Bool {
        precondition(declared.contains(flag.spec.name), "--\(flag.spec.name) is read but not declared by the command's options")
        return self.flag(flag.spec.name)
    }
}
