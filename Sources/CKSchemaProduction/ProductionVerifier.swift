import CKSchemaCKDB
import CKSchemaCKTool
import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaModel

/// `ckschema verify`: after the Console's "Deploy Schema Changes", does the live schema hold
/// every change of the plan?
///
/// The live schema (cktool's export) is diffed against the development schema, both in the
/// form a `.ckdb` can hold (`CKDBExpressible.form`, the one answer to what cktool sees). A
/// planned change is missing, or different, when that diff still has a change on the same element: the record type, the field, the index
/// kind of a field, the grant of a role, the role. What a `.ckdb` export cannot show (zones,
/// declared queries, deprecation, descriptions, reference targets, subscriptions) is counted
/// as not checked, never reported: a false alarm costs as much as a missed error.
public enum ProductionVerifier {
    /// What a verification found.
    public struct Result: Sendable {
        /// One CK811 error per planned change production lacks or has in another form.
        public var missing: [Diagnostic]
        /// Planned changes checked against the export.
        public var checked: Int
        /// Planned changes cktool's export cannot show.
        public var unchecked: Int
    }

    /// Checks `steps` (a plan's, forbidden ones left out) against `live`.
    public static func verify(steps: [PromotionStep], development: Schema, live: Schema) -> Result {
        let expected = CKDBExpressible.form(development)
        let remaining = SchemaDiff.compute(from: CKDBExpressible.form(live), to: expected).changes
        var byTarget: [String: SchemaChange] = [:]
        for c in remaining { if let t = target(c), byTarget[t] == nil { byTarget[t] = c } }
        var result = Result(missing: [], checked: 0, unchecked: 0)
        for step in steps where step.changeClass != .forbidden {
            guard let t = target(step.change) else { result.unchecked += 1; continue }
            result.checked += 1
            guard let left = byTarget[t] else { continue }
            let planned = SchemaPuller.escaped(step.change.description)
            let message = left.kind == step.change.kind
                ? "production does not have the planned change '\(planned)'"
                : "production differs from the planned change '\(planned)': from production to the plan is still '\(SchemaPuller.escaped(left.description))'"
            result.missing.append(Diagnostic(rule: PullRules.productionLacksChange, message, at: left.origin.location ?? step.change.origin.location,
                                             fix: "deploy the development schema in CloudKit Console (ckschema promote --format markdown lists the steps), then run verify again"))
        }
        return result
    }

    /// The element a change is about, for the kinds a `.ckdb` export shows; nil for the rest.
    static func target(_ c: SchemaChange) -> String? {
        let type = c.recordType ?? ""
        switch c.kind {
        case .addRecordType, .removeRecordType: return "type \(type)"
        case .addField, .removeField, .changeFieldType, .encryptField, .decryptField: return "field \(type).\(c.field ?? "")"
        case .addIndex, .removeIndex: return "index \(type).\(c.field ?? "").\(c.isSystemField).\(c.index?.rawValue ?? "")"
        case .addGrant, .removeGrant, .changeGrant: return "grant \(type).\(c.role ?? "")"
        case .addRole, .removeRole: return "role \(c.role ?? "")"
        default: return nil
        }
    }
}
