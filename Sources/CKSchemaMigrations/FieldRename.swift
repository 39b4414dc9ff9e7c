import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaPredicate
import CKSchemaStore

/// `migrate new NAME --rename Trip.rating:score`: the only rename CloudKit allows once a field
/// is in production. A deployed field can be neither renamed nor deleted ("Deploying an iCloud
/// Container's Schema": production refuses to delete or change a deployed field), so the new
/// name is a new field of the same type, encryption and indexes; a data step copies the values;
/// the old field is deprecated; the declared queries name the new field. Clients already
/// released still read and write the old field, so the app must read both (the new, else the
/// old) and write the new one until every client is updated.
public struct FieldRename: Sendable, Hashable {
    public var recordType: String
    public var from: String
    public var to: String

    public init(recordType: String, from: String, to: String) {
        self.recordType = recordType
        self.from = from
        self.to = to
    }

    /// Reads `Type.old:new`; nil when the text is not of that form.
    public init?(argument: String) {
        guard let dot = argument.firstIndex(of: "."), let colon = argument.lastIndex(of: ":"), dot < colon else { return nil }
        let type = String(argument[..<dot]), from = String(argument[argument.index(after: dot)..<colon]), to = String(argument[argument.index(after: colon)...])
        guard !type.isEmpty, !from.isEmpty, !to.isEmpty, from != to, !from.contains("."), !to.contains(".") else { return nil }
        self.init(recordType: type, from: from, to: to)
    }

    public var label: String { "\(recordType).\(from) -> \(recordType).\(to)" }

    /// What the plan tells the app: both fields are read until every client writes the new one.
    public var advice: String {
        "CloudKit cannot rename a deployed field: '\(to)' is a new field, the migration copies '\(from)' into it and deprecates '\(from)'. Until every client is updated, the app must read both ('\(to)', else '\(from)') and write '\(to)'; released clients still write '\(from)' only."
    }

    /// The development schema with the rename made: the new field beside the old (same type,
    /// encryption, indexes, reference target and action), the old one deprecated, and the
    /// declared queries and subscriptions naming the new field. Unchanged when the schema already
    /// has the new field (the rename was written by hand) and the old one is deprecated.
    /// Throws a diagnostic when the rename cannot be made.
    public func apply(to schema: Schema, replayed: Schema) throws(InputError) -> Schema {
        func refuse(_ m: String, _ fix: String) -> InputError {
            InputError(Diagnostic(rule: StoreRules.renameRefused, "--rename \(recordType).\(from):\(to): " + m, at: schema.origin.location, fix: fix))
        }
        guard CloudKitRules.isValidName(to) else {
            throw refuse("'\(to)' is not a CloudKit field name", "start with a letter; then letters, digits and '_'")
        }
        guard let t = schema.recordTypes.firstIndex(where: { $0.name == recordType }) else {
            throw refuse("the development schema has no record type '\(recordType)'", "name a record type of the schema")
        }
        guard let old = schema.recordTypes[t].field(named: from) else {
            throw refuse("record type '\(recordType)' has no field '\(from)'", "name the field's current name before the colon")
        }
        if replayed.recordType(named: recordType)?.field(named: from) == nil {
            throw refuse("the migrations do not have '\(recordType).\(from)' yet, so nothing is deployed under that name", "rename it in the schema and run `migrate new` without --rename: a field no migration has made is renamed by editing it")
        }
        if replayed.recordType(named: recordType)?.field(named: to) != nil {
            throw refuse("the migrations already have '\(recordType).\(to)'", "pick a name no migration has used; a deployed field name stays taken")
        }
        var out = schema
        if let existing = schema.recordTypes[t].field(named: to) {
            guard existing.type == old.type, existing.isEncrypted == old.isEncrypted else {
                throw refuse("'\(to)' is in the schema as \(existing.type)\(existing.isEncrypted ? ", encrypted" : "") but '\(from)' is \(old.type)\(old.isEncrypted ? ", encrypted" : "")", "give '\(to)' the type and encryption of '\(from)', or remove it and let --rename add it")
            }
        } else {
            var new = old
            new.name = to
            new.isDeprecated = false
            new.origin = .unknown
            let at = out.recordTypes[t].fields.firstIndex(where: { $0.name == from })! + 1
            out.recordTypes[t].fields.insert(new, at: at)
        }
        if let f = out.recordTypes[t].fields.firstIndex(where: { $0.name == from }) { out.recordTypes[t].fields[f].isDeprecated = true }
        for q in out.queries.indices where out.queries[q].recordType == recordType {
            out.queries[q].filter = out.queries[q].filter.map { $0 == from ? to : $0 }
            out.queries[q].search = out.queries[q].search.map { $0 == from ? to : $0 }
            out.queries[q].sort = out.queries[q].sort.map { $0 == from ? to : $0 }
            if let p = out.queries[q].predicate, let renamed = QueryPredicate.renamingKey(in: p, from: from, to: to) { out.queries[q].predicate = renamed }
        }
        return out
    }

    /// Puts the data step that copies the values right after the step that adds the new field
    /// (and its indexes), before the old field is deprecated.
    func withCopy(_ steps: [MigrationStep]) -> [MigrationStep] {
        var out = steps
        // The old field's deprecation goes last: the generator writes it at the old field's
        // place, which comes before the new one.
        let deprecation = out.firstIndex { $0.action is DeprecateStep && $0.recordTypeName == recordType && $0.fieldName == from }.map { out.remove(at: $0) }
        let at = out.lastIndex(where: { $0.recordTypeName == recordType && $0.fieldName == to }).map { $0 + 1 } ?? out.count
        out.insert(contentsOf: [MigrationStep(.copy(recordType: recordType, from: from, to: to))] + (deprecation.map { [$0] } ?? []), at: at)
        return out
    }
}
