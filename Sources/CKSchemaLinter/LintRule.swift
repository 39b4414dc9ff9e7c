import CKSchemaYAML
import CKSchemaCKDB
import CKSchemaCoreData
import CKSchemaPredicate

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
    public init(_ message: String, at origin: Origin, fix: String? = nil, fixIt: FixIt? = nil) {
        self.location = origin.location
        self.message = message
        self.fix = fix
        self.fixIt = fixIt
    }
}

extension LintRule {
    var info: RuleInfo { Self.info }
}

/// Shared lookups the rules need: a field or system field by name, with its indexes.
extension RecordType {
    /// The indexes of a custom field or a system field (`recordName`, `createdAt`, ...);
    /// nil when the record type has no such field.
    func indexesOfAnyField(_ name: String) -> IndexSet? {
        if let f = field(named: name) { return f.indexes }
        if let s = SystemField(rawValue: name) { return indexes(on: s) }
        return nil
    }
}

