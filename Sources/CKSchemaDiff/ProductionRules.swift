import CKSchemaModel

/// A rule of CloudKit's production environment: which changes it refuses, which it
/// accepts with a consequence, and which it accepts as is.
///
/// Each rule is a value: its `RuleInfo` (code, name, CloudKit source), the class it
/// gives, and how it words the reason and the fix for one change. A change takes the
/// class of the first rule in `ProductionRules.all` that matches it.
public struct ProductionRule: Sendable {
    /// Code, name, summary and CloudKit source, as `docs/rules.md` lists them.
    public let info: RuleInfo
    /// The class a change that matches this rule gets.
    public let changeClass: ChangeClass
    let evaluate: @Sendable (SchemaChange, PromotionContext) -> (reason: String, fix: String?)?

    init(_ info: RuleInfo, _ changeClass: ChangeClass, evaluate: @escaping @Sendable (SchemaChange, PromotionContext) -> (reason: String, fix: String?)?) {
        self.info = info
        self.changeClass = changeClass
        self.evaluate = evaluate
    }

    /// The step for `change` when this rule matches it, nil otherwise.
    func step(for change: SchemaChange, in context: PromotionContext) -> PromotionStep? {
        guard let verdict = evaluate(change, context) else { return nil }
        return PromotionStep(change: change, changeClass: changeClass, code: info.code, reason: verdict.reason, source: info.source, fix: verdict.fix)
    }
}

/// What the rules need to know beyond one change: both schemas, indexed by name,
/// and which declared queries need which index.
struct PromotionContext: Sendable {
    let from: Schema
    let to: Schema
    let fromTypes: [String: RecordType]
    let toTypes: [String: RecordType]
    let toZones: [String: Zone]
    /// `Type \0 field \0 kind` -> labels of the `to` schema's queries that need that index.
    let queriesNeeding: [String: [String]]

    init(from: Schema, to: Schema) {
        self.from = from
        self.to = to
        fromTypes = Dictionary(from.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        toTypes = Dictionary(to.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        toZones = Dictionary(to.zones.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var needing: [String: [String]] = [:]
        for q in to.queries {
            // A predicate needs QUERYABLE, a full-text token SEARCHABLE, a sort SORTABLE.
            // Source: CloudKit Console, “Inspecting and Editing an iCloud Container’s Schema” (indexes).
            for (fields, kind) in [(q.filter, IndexKind.queryable), (q.search, .searchable), (q.sort, .sortable)] {
                for f in Set(fields) { needing[Self.key(q.recordType, f, kind), default: []].append(q.label) }
            }
        }
        queriesNeeding = needing
    }

    static func key(_ type: String, _ field: String, _ kind: IndexKind) -> String { "\(type)\u{0}\(field)\u{0}\(kind.rawValue)" }

    /// The database a record type of the `to` schema lives in (zone first, then its own).
    func toDatabase(of type: RecordType) -> Database? {
        if let z = type.zone, z != Zone.defaultZoneName, let zone = toZones[z] { return zone.database }
        return type.database
    }

    /// The notation of the schema being deployed: messages and fixes speak it.
    var notation: SchemaNotation { to.notation.value }

    /// `Type.field`; a system field named as the `to` schema's language names it
    /// (`Users.___recordID` for a `.ckdb` source, `Users.recordName` for YAML).
    func fieldPath(_ c: SchemaChange) -> String {
        guard c.isSystemField, let t = c.recordType, let f = c.field, let sf = SystemField(rawValue: f) else { return c.fieldPath }
        return "\(t).\(notation.name(of: sf))"
    }

    /// How to retire something instead of deleting or changing it, in the source's terms:
    /// YAML has `deprecated: true`; the CloudKit Schema Language has no deprecation.
    func retire(_ what: String) -> String {
        notation == .ckdb ? "keep \(what) in the schema and stop writing it in the app" : "mark \(what) `deprecated: true`"
    }

    /// The fix for a deletion: keep it, retired.
    func keep(_ what: String, instead: String) -> String {
        notation == .ckdb
            ? "keep \(what) in the schema (production never deletes it; the CloudKit Schema Language has no deprecation, so stop using it in the app) instead of \(instead)"
            : "keep \(what) in the schema and mark it `deprecated: true` instead of \(instead)"
    }

    /// CK304's and CK305's fix for a YAML source: the field to declare and the data step
    /// that fills it (`EncryptionAdvice`); nil for a `.ckdb` source, which has no migrations.
    func encryptionFix(_ c: SchemaChange) -> String? {
        guard notation != .ckdb, let t = c.recordType, let f = c.field,
              let old = fromTypes[t]?.field(named: f), let new = toTypes[t]?.field(named: f) else { return nil }
        return EncryptionAdvice.fix(recordType: t, field: f, old: old, new: new)
    }

    func existedInProduction(_ recordType: String?) -> Bool {
        guard let recordType else { return false }
        return fromTypes[recordType] != nil
    }
}

/// CloudKit's production rules, in the order they are tried.
public enum ProductionRules {
    // MARK: Sources (Apple documentation titles; the URLs are in docs/promotion.md)

    static let deploying = "Apple, “Deploying an iCloud Container’s Schema”: you can’t delete record types or fields that are already in production; deploys merge additive changes (https://developer.apple.com/documentation/cloudkit/deploying-an-icloud-container-s-schema)"
    static let textSchema = "Apple, “Integrating a Text-Based Schema into Your Workflow”: a schema whose changes would lose data with respect to the production schema isn’t valid, and CloudKit makes no changes (https://developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow)"
    static let encryptedValues = "Apple, CKRecord.encryptedValues: “Only encrypt new fields. CloudKit doesn’t allow encryption on fields that already exist in your app’s schema, or on records that you store in the public database.” (https://developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues)"
    static let recordZone = "Apple, CKRecordZone: the public and private databases each have a single default zone; custom zones are created in the private database (https://developer.apple.com/documentation/cloudkit/ckrecordzone)"
    static let indexes = "Apple, CloudKit Quick Start, “Deploying the Schema”: indexes are part of the schema and deploy like record type changes; “Inspecting and Editing an iCloud Container’s Schema”: add and remove indexes (https://developer.apple.com/documentation/cloudkit/inspecting-and-editing-an-icloud-container-s-schema)"
    static let reference = "Apple, CKRecord.Reference: the target record ID and the delete action are stored in each reference value when it is saved (https://developer.apple.com/documentation/cloudkit/ckrecord/reference)"
    static let security = "Apple, CloudKit Schema Language (`GRANT`, `CREATE ROLE`) in “Integrating a Text-Based Schema into Your Workflow”; CloudKit Console security roles (https://developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow)"

    // MARK: Rule infos

    /// CK300 safe-change, as docs/rules.md lists it.
    public static let safeInfo = RuleInfo(code: "CK300", name: "safe-change", summary: "A change production accepts as is: an added record type, field, zone, role or declared query, an index on a new record type, a deprecation or a description.", defaultSeverity: .note, source: deploying)
    /// CK301 record-type-deleted, as docs/rules.md lists it.
    public static let recordTypeDeletedInfo = RuleInfo(code: "CK301", name: "record-type-deleted", summary: "A record type in production is missing from the new schema.", defaultSeverity: .error, source: deploying)
    /// CK302 field-deleted, as docs/rules.md lists it.
    public static let fieldDeletedInfo = RuleInfo(code: "CK302", name: "field-deleted", summary: "A field in production is missing from the new schema.", defaultSeverity: .error, source: deploying)
    /// CK303 field-type-changed, as docs/rules.md lists it.
    public static let fieldRetypedInfo = RuleInfo(code: "CK303", name: "field-type-changed", summary: "A field in production has a different type in the new schema.", defaultSeverity: .error, source: textSchema)
    /// CK304 field-encrypted, as docs/rules.md lists it.
    public static let fieldEncryptedInfo = RuleInfo(code: "CK304", name: "field-encrypted", summary: "A field in production becomes encrypted.", defaultSeverity: .error, source: encryptedValues)
    /// CK305 field-decrypted, as docs/rules.md lists it.
    public static let fieldDecryptedInfo = RuleInfo(code: "CK305", name: "field-decrypted", summary: "An encrypted field in production stops being encrypted.", defaultSeverity: .error, source: textSchema)
    /// CK306 public-database-encryption, as docs/rules.md lists it.
    public static let publicEncryptionInfo = RuleInfo(code: "CK306", name: "public-database-encryption", summary: "An encrypted field on a record type in the public database (added, or by moving the type there).", defaultSeverity: .error, source: encryptedValues)
    /// CK307 public-database-zone, as docs/rules.md lists it.
    public static let publicZoneInfo = RuleInfo(code: "CK307", name: "public-database-zone", summary: "A custom zone in the public database, which has only its default zone.", defaultSeverity: .error, source: recordZone)
    /// CK310 index-removed, as docs/rules.md lists it.
    public static let indexRemovedInfo = RuleInfo(code: "CK310", name: "index-removed", summary: "An index is removed; the plan names the declared queries that need it.", defaultSeverity: .warning, source: indexes)
    /// CK311 index-added-to-existing-type, as docs/rules.md lists it.
    public static let indexAddedInfo = RuleInfo(code: "CK311", name: "index-added-to-existing-type", summary: "An index is added to a record type already in production, whose existing records it must cover.", defaultSeverity: .warning, source: indexes)
    /// CK312 grants-changed, as docs/rules.md lists it.
    public static let grantsChangedInfo = RuleInfo(code: "CK312", name: "grants-changed", summary: "Who may read, create or write a record type in production changes.", defaultSeverity: .warning, source: security)
    /// CK313 reference-changed, as docs/rules.md lists it.
    public static let referenceChangedInfo = RuleInfo(code: "CK313", name: "reference-changed", summary: "A reference field in production points to another record type or uses another delete action.", defaultSeverity: .warning, source: reference)
    /// CK314 record-type-moved, as docs/rules.md lists it.
    public static let recordTypeMovedInfo = RuleInfo(code: "CK314", name: "record-type-moved", summary: "A record type in production moves to another zone or database; its existing records do not move.", defaultSeverity: .warning, source: recordZone)
    /// CK315 zone-changed, as docs/rules.md lists it.
    public static let zoneChangedInfo = RuleInfo(code: "CK315", name: "zone-changed", summary: "A zone is removed, moves database or changes capabilities; zones already created keep what they were created with.", defaultSeverity: .warning, source: recordZone)
    /// CK316 role-removed, as docs/rules.md lists it.
    public static let subscriptionChangedInfo = RuleInfo(code: "CK750", name: "subscription-changed", summary: "A subscription is removed or changed: users keep the one their app saved until the app deletes or re-saves it.", defaultSeverity: .warning, source: "CKSubscription; CKModifySubscriptionsOperation (developer.apple.com/documentation/cloudkit/ckmodifysubscriptionsoperation): subscriptions are saved by the app at run time, not deployed with the schema.")
    public static let roleRemovedInfo = RuleInfo(code: "CK316", name: "role-removed", summary: "A custom security role in production is removed.", defaultSeverity: .warning, source: security)
    /// CK317 container-changed, as docs/rules.md lists it.
    public static let containerChangedInfo = RuleInfo(code: "CK317", name: "container-changed", summary: "The two schemas name different containers.", defaultSeverity: .warning, source: deploying)

    // MARK: Rules

    /// Deleting a record type. A type kept with `deprecated: true` is not a deletion.
    /// Source: “Deploying an iCloud Container’s Schema” — you can’t delete record types
    /// or fields that are already in production.
    public static let recordTypeDeleted = ProductionRule(recordTypeDeletedInfo, .forbidden) { c, ctx in
        guard c.kind == .removeRecordType, let t = c.recordType else { return nil }
        return ("record type '\(t)' is in production and cannot be deleted",
                ctx.keep("'\(t)'", instead: "deleting it"))
    }

    /// Deleting a field. Source: “Deploying an iCloud Container’s Schema” (as above).
    public static let fieldDeleted = ProductionRule(fieldDeletedInfo, .forbidden) { c, ctx in
        guard c.kind == .removeField else { return nil }
        return ("field '\(c.fieldPath)' is in production and cannot be deleted",
                ctx.keep("'\(c.fieldPath)'", instead: "deleting it"))
    }

    /// Changing a field's type. Source: “Integrating a Text-Based Schema into Your
    /// Workflow” — a change that would lose data makes the schema invalid; CloudKit Quick
    /// Start — after deploying you are limited to creating record types and adding fields.
    public static let fieldRetyped = ProductionRule(fieldRetypedInfo, .forbidden) { c, ctx in
        guard c.kind == .changeFieldType, let f = c.field else { return nil }
        let reason = "field '\(c.fieldPath)' is \(c.before ?? "?") in production and cannot change type to \(c.after ?? "?")"
        // In YAML the fix is the migration line that fills the new field (RetypeAdvice).
        if ctx.notation != .ckdb, let t = c.recordType, let old = ctx.fromTypes[t]?.field(named: f), let new = ctx.toTypes[t]?.field(named: f) {
            return (reason, RetypeAdvice.fix(recordType: t, field: f, old: old, new: new))
        }
        return (reason, "add a new \(c.after ?? "") field (for example '\(f)V2'), backfill it from '\(f)', and \(ctx.retire("'\(f)'")) instead of changing its type")
    }

    /// Encrypting an existing field. Source: CKRecord.encryptedValues — “Only encrypt new
    /// fields. CloudKit doesn’t allow encryption on fields that already exist.”
    public static let fieldEncrypted = ProductionRule(fieldEncryptedInfo, .forbidden) { c, ctx in
        guard c.kind == .encryptField, let f = c.field else { return nil }
        let reason = "field '\(c.fieldPath)' already exists in production and cannot become encrypted; CloudKit encrypts only new fields"
        // In YAML the fix is the field to declare and the migration line that fills it (EncryptionAdvice).
        if let fix = ctx.encryptionFix(c) { return (reason, fix) }
        return (reason, "add a new encrypted field (for example '\(f)Encrypted'), backfill it from '\(f)', and \(ctx.retire("'\(f)'"))")
    }

    /// Decrypting an existing field: its values are stored encrypted and the type in
    /// production is the encrypted one. Source: “Integrating a Text-Based Schema into Your
    /// Workflow” (`ENCRYPTED` is part of the field's data type; changing it loses data).
    public static let fieldDecrypted = ProductionRule(fieldDecryptedInfo, .forbidden) { c, ctx in
        guard c.kind == .decryptField, let f = c.field else { return nil }
        let reason = "field '\(c.fieldPath)' is encrypted in production and cannot stop being encrypted"
        // In YAML the fix is the field to declare; no data step may copy it (EncryptionAdvice).
        if let fix = ctx.encryptionFix(c) { return (reason, fix) }
        return (reason, "add a new unencrypted field (for example '\(f)Plain'), have the app fill it from '\(f)', and \(ctx.retire("'\(f)'"))")
    }

    /// An encrypted field on a public-database record type. Source: CKRecord.encryptedValues
    /// — CloudKit doesn’t allow encryption “on records that you store in the public database”.
    public static let publicEncryption = ProductionRule(publicEncryptionInfo, .forbidden) { c, ctx in
        guard let name = c.recordType, let type = ctx.toTypes[name], ctx.toDatabase(of: type) == .public else { return nil }
        switch c.kind {
        case .addField, .encryptField:
            guard let f = c.field, type.field(named: f)?.isEncrypted == true else { return nil }
            return ("field '\(c.fieldPath)' is encrypted, but record type '\(name)' is in the public database, which does not support encryption",
                    "store '\(f)' unencrypted, or keep '\(name)' in the private database")
        case .changeRecordTypeDatabase, .changeRecordTypeZone:
            guard let encrypted = type.fields.first(where: \.isEncrypted) else { return nil }
            return ("record type '\(name)' moves to the public database, but its field '\(encrypted.name)' is encrypted and the public database does not support encryption",
                    "keep '\(name)' in the private database")
        default: return nil
        }
    }

    /// A custom zone in the public database. Source: CKRecordZone — the public database has
    /// a single default zone; custom zones are created in the private database.
    public static let publicZone = ProductionRule(publicZoneInfo, .forbidden) { c, ctx in
        guard c.kind == .addZone || c.kind == .changeZoneDatabase, let z = c.zone, ctx.toZones[z]?.database == .public else { return nil }
        return ("zone '\(z)' is in the public database, which has only its default zone",
                "put '\(z)' in the private database, or use the public database's default zone")
    }

    /// Removing an index: allowed, but production then refuses every query that needs it
    /// (`Field 'x' is not marked queryable`). Source: CloudKit Console, “Inspecting and
    /// Editing an iCloud Container’s Schema” (indexes), CloudKit Quick Start (indexes deploy).
    public static let indexRemoved = ProductionRule(indexRemovedInfo, .review) { c, ctx in
        guard c.kind == .removeIndex, let t = c.recordType, let f = c.field, let kind = c.index else { return nil }
        let needing = ctx.queriesNeeding[PromotionContext.key(t, f, kind)] ?? []
        if needing.isEmpty {
            return ("removing the \(kind.rawValue) index on '\(ctx.fieldPath(c))' makes production refuse every query that \(verb(kind)) it; no declared query needs it",
                    "check that no app version in use still runs such a query")
        }
        return ("removing the \(kind.rawValue) index on '\(ctx.fieldPath(c))' breaks the declared queries that need it: \(needing.joined(separator: "; "))",
                "keep the index, or change those queries and wait until no app version in use runs them")
    }

    /// Adding an index to a record type that already has records in production. The
    /// deploy is accepted; Apple does not document how long indexing the existing records
    /// takes, so a person should see it. Source: as `indexRemoved`.
    public static let indexAdded = ProductionRule(indexAddedInfo, .review) { c, ctx in
        guard c.kind == .addIndex, let kind = c.index, ctx.existedInProduction(c.recordType), let t = c.recordType else { return nil }
        // An index on a field that is itself new covers no existing value.
        if !c.isSystemField, let f = c.field, ctx.fromTypes[t]?.field(named: f) == nil { return nil }
        return ("adds a \(kind.rawValue) index on '\(ctx.fieldPath(c))' to record type '\(t)', which is already in production: the index must also cover the records already saved there",
                "deploy the schema before the app version whose queries need the index, and check those queries in production")
    }

    /// Changing grants on a record type in production. Source: CloudKit Schema Language
    /// `GRANT`; CloudKit Console security roles.
    public static let grantsChanged = ProductionRule(grantsChangedInfo, .review) { c, ctx in
        guard let t = c.recordType, let role = c.role, ctx.existedInProduction(t) else { return nil }
        let fix = "confirm that every app version in use still has the access it needs to '\(t)' records"
        switch c.kind {
        case .addGrant: return ("role '\(role)' gains \(c.after ?? "") on record type '\(t)', which is already in production", fix)
        case .removeGrant: return ("role '\(role)' loses \(c.before ?? "") on record type '\(t)', which is already in production", fix)
        case .changeGrant: return ("role '\(role)' on record type '\(t)' changes from \(c.before ?? "") to \(c.after ?? "")", fix)
        default: return nil
        }
    }

    /// A reference in production retargeted, or with another delete action: the values
    /// already saved keep theirs. Source: CKRecord.Reference.
    public static let referenceChanged = ProductionRule(referenceChangedInfo, .review) { c, ctx in
        switch c.kind {
        case .changeReferenceTarget:
            return ("reference '\(c.fieldPath)' now points to '\(c.after ?? "")' instead of '\(c.before ?? "")'; references already saved still point to '\(c.before ?? "")' records",
                    "add a new reference field for '\(c.after ?? "")' and backfill it, then \(ctx.retire("'\(c.field ?? "")'"))")
        case .changeReferenceAction:
            return ("reference '\(c.fieldPath)' changes its delete action from \(c.before ?? "") to \(c.after ?? ""); references already saved keep the action they were saved with",
                    "re-save existing '\(c.recordType ?? "")' records to apply the new action")
        default: return nil
        }
    }

    /// A record type moved to another zone or database: CloudKit never moves records.
    /// Source: CKRecordZone (records belong to the zone they were saved in).
    public static let recordTypeMoved = ProductionRule(recordTypeMovedInfo, .review) { c, _ in
        guard let t = c.recordType else { return nil }
        switch c.kind {
        case .changeRecordTypeZone:
            return ("record type '\(t)' moves from zone '\(c.before ?? "")' to zone '\(c.after ?? "")'; CloudKit does not move the records already in '\(c.before ?? "")'",
                    "copy existing '\(t)' records to '\(c.after ?? "")' in a migration, or keep the zone")
        case .changeRecordTypeDatabase:
            return ("record type '\(t)' moves from the \(c.before ?? "") database to the \(c.after ?? "") database; CloudKit does not move the records already saved",
                    "copy existing '\(t)' records in a migration, or keep the database")
        default: return nil
        }
    }

    /// Zone changes: zones are created by the app, and a zone keeps the database and the
    /// capabilities it was created with. Source: CKRecordZone (capabilities are the server's).
    public static let zoneChanged = ProductionRule(zoneChangedInfo, .review) { c, _ in
        guard let z = c.zone else { return nil }
        switch c.kind {
        case .removeZone:
            return ("zone '\(z)' is no longer in the schema; the zones users already have, and their records, stay until the app deletes them",
                    "delete the zone in the app with CKModifyRecordZonesOperation, or keep it in the schema")
        case .changeZoneDatabase:
            return ("zone '\(z)' moves from the \(c.before ?? "") database to the \(c.after ?? "") database; a zone cannot move, and its records stay where they are",
                    "create a new zone in the \(c.after ?? "") database and copy the records in a migration")
        case .addZoneCapability:
            return ("zone '\(z)' gains the \(c.capability?.rawValue ?? "") capability; zones already created keep the capabilities they were created with",
                    "check `CKRecordZone.capabilities` at run time before relying on \(c.capability?.rawValue ?? "it")")
        case .removeZoneCapability:
            return ("zone '\(z)' loses the \(c.capability?.rawValue ?? "") capability; zones already created keep it, and app versions in use may rely on it",
                    "check that no app version in use relies on \(c.capability?.rawValue ?? "it") in '\(z)'")
        default: return nil
        }
    }

    /// Removing a custom role that production has. Source: CloudKit Schema Language
    /// `CREATE ROLE`; CloudKit Console security roles.
    public static let roleRemoved = ProductionRule(roleRemovedInfo, .review) { c, _ in
        guard c.kind == .removeRole, let r = c.role else { return nil }
        return ("security role '\(r)' is in production and is removed; users who hold it lose what it grants",
                "keep the role until no record type grants to it and no user relies on it")
    }

    /// Two different containers. Source: “Deploying an iCloud Container’s Schema” (a
    /// container deploys its own development schema to its own production).
    public static let containerChanged = ProductionRule(containerChangedInfo, .review) { c, _ in
        guard c.kind == .changeContainer else { return nil }
        return ("the schemas are for different containers: '\(c.before ?? "")' and '\(c.after ?? "")'",
                "compare the development and production schemas of the same container")
    }

    /// A subscription removed or changed. Subscriptions are not deployed with the schema: the app
    /// saves them at run time (CKModifySubscriptionsOperation), per user in the private and shared
    /// databases. One already saved keeps firing until the app deletes it or saves a new one with
    /// the same ID. Source: CKSubscription, CKModifySubscriptionsOperation
    /// (developer.apple.com/documentation/cloudkit/ckmodifysubscriptionsoperation).
    public static let subscriptionChanged = ProductionRule(subscriptionChangedInfo, .review) { c, _ in
        guard let id = c.subscription else { return nil }
        switch c.kind {
        case .removeSubscription:
            return ("subscription '\(id)' is removed; every user's device that saved it keeps receiving its notifications until the app deletes it",
                    "delete it in the app with CKModifySubscriptionsOperation(subscriptionIDsToDelete: [\"\(id)\"])")
        case .changeSubscription:
            return ("subscription '\(id)' changes; users keep the version their app saved until the app saves the new one under the same ID",
                    "save the new subscription on launch (CKModifySubscriptionsOperation) so that every user gets it")
        default: return nil
        }
    }

    /// Everything else: additions, deprecations, descriptions, declared queries, indexes
    /// on new types or new fields. Source: “Deploying an iCloud Container’s Schema” —
    /// deploys merge additive changes into the production schema.
    public static let safe = ProductionRule(safeInfo, .safe) { c, ctx in
        (safeReason(c, ctx), nil)
    }

    /// The rules in the order they are tried; `safe` matches whatever is left.
    public static let all: [ProductionRule] = [
        recordTypeDeleted, fieldDeleted, CoreDataPromotion.retyped, fieldRetyped, fieldEncrypted, fieldDecrypted, publicEncryption, publicZone,
        indexRemoved, indexAdded, grantsChanged, referenceChanged, recordTypeMoved, zoneChanged, roleRemoved, containerChanged,
        CoreDataPromotion.notDescribed, CoreDataPromotion.renamed, CoreDataPromotion.justInTime, subscriptionChanged, safe,
    ]

    /// The codes of the rules whose changes production refuses: no `promote:` setting lowers
    /// them (`PromotionPlan.configured(by:)`; `Configuration.load` refuses such a setting).
    public static let forbiddenCodes: Set<String> = Set(all.filter { $0.changeClass == .forbidden }.map(\.info.code))

    /// Classifies one change against the two schemas.
    static func classify(_ change: SchemaChange, in context: PromotionContext) -> PromotionStep {
        for rule in all {
            if let step = rule.step(for: change, in: context) { return step }
        }
        preconditionFailure("the safe rule matches every change")
    }

    private static func verb(_ kind: IndexKind) -> String {
        switch kind {
        case .queryable: "filters on"
        case .searchable: "searches"
        case .sortable: "sorts by"
        }
    }

    private static func safeReason(_ c: SchemaChange, _ ctx: PromotionContext) -> String {
        let t = c.recordType ?? ""
        switch c.kind {
        case .addRecordType: return "adds record type '\(t)'"
        case .addField: return "adds field '\(c.fieldPath)' (\(c.after ?? ""))"
        case .addIndex: return "adds a \(c.index?.rawValue ?? "") index on '\(ctx.fieldPath(c))'"
        case .addGrant: return "grants \(c.after ?? "") on new record type '\(t)' to role '\(c.role ?? "")'"
        case .removeGrant, .changeGrant: return "changes grants on new record type '\(t)'"
        case .addZone: return "adds zone '\(c.zone ?? "")' (\(c.after ?? ""))"
        case .addRole: return "adds security role '\(c.role ?? "")'"
        case .addQuery: return "declares query \(c.query ?? "")"
        case .removeQuery: return "no longer declares query \(c.query ?? "")"
        case .addSubscription: return "adds subscription '\(c.subscription ?? "")'; the app saves it at run time, and it fires from then on"
        case .deprecateRecordType: return "deprecates record type '\(t)'; it stays in production"
        case .undeprecateRecordType: return "record type '\(t)' is no longer deprecated"
        case .deprecateField: return "deprecates field '\(c.fieldPath)'; it stays in production"
        case .undeprecateField: return "field '\(c.fieldPath)' is no longer deprecated"
        case .changeRecordTypeDescription: return "changes the description of record type '\(t)'"
        case .changeFieldDescription: return "changes the description of field '\(c.fieldPath)'"
        case .changeRequiredCapabilities: return "record type '\(t)' now requires zone capabilities [\(c.after ?? "")]; lint checks its zone has them"
        default: return c.description
        }
    }
}
