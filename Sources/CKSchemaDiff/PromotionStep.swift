import CKSchemaDiagnostics
import CKSchemaModel

/// How production treats one change.
public enum ChangeClass: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Production accepts it as is.
    case safe
    /// Production accepts it, with a consequence a person should see first.
    case review
    /// Production refuses it: the deploy fails, or data becomes unreachable.
    case forbidden

    /// safe < review < forbidden.
    public static func < (a: ChangeClass, b: ChangeClass) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The diagnostic severity a step of this class is reported with.
    public var severity: Severity {
        switch self {
        case .safe: .note
        case .review: .warning
        case .forbidden: .error
        }
    }
}

/// One step of a promotion plan: a change, its class, why, the CloudKit rule and the fix.
public struct PromotionStep: Sendable, Hashable, Codable {
    public var change: SchemaChange
    /// The class: `safe`, `review` or `forbidden`.
    public var changeClass: ChangeClass
    /// The production rule that classified it (`CK302`).
    public var code: String
    /// What happens in production, in one sentence.
    public var reason: String
    /// The CloudKit documentation the rule comes from.
    public var source: String
    /// What to do instead, when there is something to do.
    public var fix: String?

    /// Makes a step.
    public init(change: SchemaChange, changeClass: ChangeClass, code: String, reason: String, source: String, fix: String? = nil) {
        self.change = change
        self.changeClass = changeClass
        self.code = code
        self.reason = reason
        self.source = source
        self.fix = fix
    }

    private enum CodingKeys: String, CodingKey {
        case change, changeClass = "class", code, reason, source, fix
    }

    /// The step as a diagnostic: forbidden is an error, review a warning, safe a note.
    ///
    /// It points at the element in the `to` schema (for a removal, in the `from` schema).
    public var diagnostic: Diagnostic {
        Diagnostic(code: code, severity: changeClass.severity, location: change.origin.location, message: reason, fix: fix)
    }
}
