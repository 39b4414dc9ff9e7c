import CKSchemaDiagnostics
import CKSchemaModel

/// One lint rule: a code, what it catches, and the check.
public protocol LintRule: Sendable {
    /// The rule's code, name, summary, default severity and CloudKit source.
    static var info: RuleInfo { get }
    init()
    /// Appends a finding for every place the schema (`context.schema`) breaks the rule; the
    /// context holds what several rules share, computed once.
    func check(_ context: LintContext, into findings: inout [LintFinding])
}

/// A finding before its severity is settled by the configuration.
public struct LintFinding: Sendable {
    public var location: SourceLocation?
    public var message: String
    public var fix: String?
    /// The fix as a text change (docs/output.md, "Fix-its").
    public var fixIt: FixIt?
    /// The place of the key of what the finding is about (a field's name), when the finding
    /// points at one of its values instead: a `ckschema-disable` comment on the key's line
    /// covers the finding too, as it did when findings pointed at keys.
    public var keyLocation: SourceLocation?

    public init(_ message: String, at origin: Origin, fix: String? = nil, fixIt: FixIt? = nil) {
        self.location = origin.location
        self.message = message
        self.fix = fix
        self.fixIt = fixIt
    }

    /// A finding at `location`, one of the values of the element whose key is at `key`.
    public init(_ message: String, at location: SourceLocation?, key: Origin, fix: String? = nil, fixIt: FixIt? = nil) {
        self.location = location ?? key.location
        self.message = message
        self.fix = fix
        self.fixIt = fixIt
        self.keyLocation = key.location
    }
}

extension LintRule {
    var info: RuleInfo { Self.info }
}

/// Where findings about a field's values point (docs/output.md, "Where a finding points"),
/// and the one fix-it that rewrites its indexes.
extension Field {
    /// The field's type as written (`type:`'s value, the shorthand, `.ckdb`'s type token), else its key.
    var typePlace: SourceLocation? { typeLocation ?? origin.location }

    /// The field's indexes as written (`indexes:`'s value, `.ckdb`'s first index keyword), else its key.
    var indexesPlace: SourceLocation? { indexesLocation ?? origin.location }

    /// The fix-it that makes the field's indexes `kinds`: it replaces the whole value the
    /// reader measured (a YAML flow list or scalar on one line, `.ckdb`'s run of index keywords)
    /// with the list in canonical form, `[queryable, sortable]` or `QUERYABLE SORTABLE`. Nil
    /// where the reader knows no exact extent (a block list, a value over several lines, no
    /// `indexes:` at all) and, in `.ckdb`, for no index at all (the keywords' run would leave
    /// its space behind): a fix-it is offered only where applying it is exactly the fix.
    func indexesFixIt(_ kinds: IndexKinds, notation: SchemaNotation) -> FixIt? {
        guard let at = indexesLocation, let width = indexesWidth else { return nil }
        switch notation {
        case .yaml:
            return FixIt(replacing: width, at: at, with: "[" + kinds.kinds.map(\.rawValue).joined(separator: ", ") + "]")
        case .ckdb:
            guard !kinds.isEmpty else { return nil }
            return FixIt(replacing: width, at: at, with: kinds.kinds.map { notation.word($0) }.joined(separator: " "))
        }
    }
}

