import CKSchemaCoreData
import CKSchemaModel

/// The production rules for a Core Data model as the development side (CK630-CK633):
/// the same CloudKit rules, worded in Core Data's terms, and the changes only a model
/// makes (a field that is no longer described, a field created just in time).
enum CoreDataPromotion {
    static let deploying = "Apple, “Deploying an iCloud Container's Schema”; “Creating a Core Data Model for CloudKit” (record types and attributes are immutable once in production)"

    static let retypedInfo = RuleInfo(code: "CK630", name: "coredata-attribute-retyped", summary: "A model attribute's type changed, so its CD_ field would change type, which production refuses.", defaultSeverity: .error, source: deploying)
    static let notDescribedInfo = RuleInfo(code: "CK631", name: "coredata-not-described", summary: "A CD_ record type or field in production that the model no longer describes: it stays in production (a model cannot delete it).", defaultSeverity: .note, source: deploying)
    static let justInTimeInfo = RuleInfo(code: "CK632", name: "coredata-just-in-time", summary: "A CD_ record type or field the model has and production lacks: CloudKit creates it in development when a record first carries it; deploy it before the release that writes it.", defaultSeverity: .note, source: "Apple, “Creating a Core Data Model for CloudKit” (initialize the development schema, then deploy); CloudKit creates fields just in time in development only.")
    static let renamedInfo = RuleInfo(code: "CK633", name: "coredata-renamed", summary: "An entity or attribute renamed with a renaming identifier: CloudKit does not rename, the new CD_ name is a new field or type next to the old one.", defaultSeverity: .warning, source: CoreDataRules.readingRecords + "; record types and fields cannot be renamed in production (“Deploying an iCloud Container's Schema”)")

    static let infos = [retypedInfo, notDescribedInfo, justInTimeInfo, renamedInfo]

    /// Tried before CloudKit's own retype rule, so a model gets the fix in Core Data's terms.
    static let retyped = ProductionRule(retypedInfo, .forbidden) { c, ctx in
        guard c.kind == .changeFieldType, ctx.to.coreDataModel != nil, let f = c.field else { return nil }
        let attr = f.hasPrefix("CD_") ? String(f.dropFirst(3)) : f
        return ("field '\(c.fieldPath)' is \(c.before ?? "?") in production; the model's attribute '\(attr)' now maps to \(c.after ?? "?"), and production cannot change a field's type",
                "in a new model version keep '\(attr)' with its old type, add a new attribute (for example '\(attr)V2') of the new type, copy the values in code, and stop writing '\(attr)'")
    }

    static let notDescribed = ProductionRule(notDescribedInfo, .safe) { c, _ in
        switch c.kind {
        case .notDescribedRecordType:
            return ("record type '\(c.recordType ?? "")' is in production and the model no longer describes it; it stays in production with its records", nil)
        case .notDescribedField:
            return ("field '\(c.fieldPath)' is in production and the model no longer describes it; it stays in production, and records keep their values", nil)
        default: return nil
        }
    }

    static let justInTime = ProductionRule(justInTimeInfo, .safe) { c, ctx in
        guard ctx.to.coreDataModel != nil, c.kind == .addField || c.kind == .addRecordType else { return nil }
        let what = c.kind == .addField ? "field '\(c.fieldPath)' (\(c.after ?? ""))" : "record type '\(c.recordType ?? "")'"
        return ("adds \(what); CloudKit creates it in development only when a record carrying it is first saved, and production refuses to create it",
                "before the release that writes it, save such a record in development (or call initializeCloudKitSchema), then deploy the schema to production")
    }

    /// An added CD_ name whose model element carries a renaming identifier naming another element.
    ///
    /// Hook for SwiftData (issue 25, point 5): `@Attribute(originalName: "rating")` and
    /// `@Relationship(originalName:)` are SwiftData's renaming identifier. A SwiftData reader
    /// that builds a `CoreDataModel` sets `renamingIdentifier` on the attribute, relationship
    /// or entity it maps (as the Core Data reader does from `elementID`), and this rule gives
    /// the same CK633 advice with no change here.
    static let renamed = ProductionRule(renamedInfo, .review) { c, ctx in
        guard let model = ctx.to.coreDataModel, c.kind == .addField || c.kind == .addRecordType else { return nil }
        let added = c.kind == .addField ? c.field : c.recordType
        for e in model.entities {
            if c.kind == .addRecordType {
                if CoreDataMapping.cloudName(e.name) == added, let old = e.renamingIdentifier, old != e.name {
                    return ("entity '\(e.name)' is renamed from '\(old)'; CloudKit does not rename, so '\(c.recordType ?? "")' is a new record type next to 'CD_\(old)', which keeps the existing records",
                            "keep the entity's old name (the class name can differ: set Class in the Data Model inspector), or copy the records in code")
                }
                continue
            }
            let names = e.attributes.map { ($0.name, $0.renamingIdentifier) } + e.relationships.map { ($0.name, $0.renamingIdentifier) }
            for (name, old) in names where CoreDataMapping.cloudName(name) == added {
                if let old, old != name {
                    return ("'\(e.name).\(name)' is renamed from '\(old)'; CloudKit does not rename, so '\(c.fieldPath)' is a new field next to 'CD_\(old)', which keeps the existing values",
                            "keep the old name in the model (rename only the property in code), or copy the values in code")
                }
            }
        }
        return nil
    }
}
