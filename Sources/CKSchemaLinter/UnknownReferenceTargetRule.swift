import CKSchemaDiagnostics
import CKSchemaModel

/// A reference's target must be a record type the schema defines, and only references
/// have a target or a delete action.
///
/// Source: CKRecord.Reference (developer.apple.com/documentation/cloudkit/ckrecord/reference):
/// a reference points at a record; a target type the schema lacks cannot be created in production.
struct UnknownReferenceTargetRule: LintRule {
    static let info = RuleInfo(
        code: "CK108", name: "unknown-reference-target",
        summary: "A reference field names a record type ('to:') that the schema does not define.",
        defaultSeverity: .error,
        source: "CKRecord.Reference (developer.apple.com/documentation/cloudkit/ckrecord/reference)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let names = Set(schema.recordTypes.map(\.name)).union(CloudKitRules.systemRecordTypes)
        for t in schema.recordTypes {
            for i in t.fields.indices {
                guard let target = t.fields[i].referenceTarget, !names.contains(target) else { continue }
                let f = t.fields[i]
                // At the `to:` value; the one close name is a rename the renderer keeps only
                // where the file holds the target there (`FixIt.verified(against:)`).
                let place = f.referenceTargetLocation
                let rename = Suggest.closest(to: target, in: names).flatMap { s in place.map { FixIt(renaming: target, at: $0, to: s) } }
                findings.append(LintFinding("field '\(t.name).\(f.name)' references record type '\(target)', which the schema does not define\(Suggest.phrase(for: target, in: names))",
                                            at: place, key: f.origin, fix: "define '\(target)' or correct 'to:'", fixIt: rename))
            }
        }
    }
}
