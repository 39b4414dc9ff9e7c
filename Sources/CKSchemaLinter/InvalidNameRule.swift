import CKSchemaModel

/// Record type and field names: a letter, then letters, digits and `_`, at most 255 characters.
///
/// Source: CloudKit Console, "Creating a record type" ("names must start with a letter and
/// contain only letters, numbers, and underscores"); CKRecord, "Supported key names"
/// (https://developer.apple.com/documentation/cloudkit/ckrecord).
struct InvalidNameRule: LintRule {
    static let info = CloudKitRule.invalidName.info

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for t in schema.recordTypes {
            if let v = CloudKitRules.recordTypeNameViolation(t.name) { findings.append(LintFinding(v.message, at: t.origin, fix: v.fix)) }
            // By index: a field is read in place, not copied (lint reads every field of a large schema).
            for i in t.fields.indices {
                if let v = CloudKitRules.fieldNameViolation(t.fields[i].name, inType: t.name) { findings.append(LintFinding(v.message, at: t.fields[i].origin, fix: v.fix)) }
            }
        }
    }
}
