import Testing
import CKSchema

/// One hand-written production -> development pair per production rule, asserting the
/// exact class, code, reason and fix of the step it produces.
@Suite struct ProductionRulesTests {
    typealias F = PromoteFixtures

    /// The plan of `to` against the shared production schema; exactly one step expected.
    private func onlyStep(_ to: Schema, from: Schema = F.production()) throws -> PromotionStep {
        let plan = PromotionPlan.compute(from: from, to: to)
        try #require(plan.steps.count == 1, "steps: \(plan.steps.map(\.change.description))")
        return plan.steps[0]
    }

    @Test func identicalSchemasGiveAnEmptyPlan() {
        let plan = PromotionPlan.compute(from: F.production(), to: F.development())
        #expect(plan.steps.isEmpty)
        #expect(plan.highestClass == nil)
        #expect(!plan.fails(on: .safe))
    }

    @Test func deletingARecordTypeIsForbidden() throws {
        var to = F.development()
        to.recordTypes.removeAll { $0.name == "User" }
        let step = try onlyStep(to)
        #expect(step.changeClass == .forbidden)
        #expect(step.code == "CK301")
        #expect(step.reason == "record type 'User' is in production and cannot be deleted")
        #expect(step.fix == "keep 'User' in the schema and mark it `deprecated: true` instead of deleting it")
        #expect(step.source.contains("Deploying an iCloud Container’s Schema"))
        // A deletion points at the production file, where the type still is.
        #expect(step.diagnostic.location == SourceLocation(file: "prod.yaml", line: 20, column: 5))
        #expect(step.diagnostic.severity == .error)
    }

    @Test func deprecatingARecordTypeIsSafeNotADeletion() throws {
        let step = try onlyStep(F.development("User") { $0.isDeprecated = true })
        #expect(step.changeClass == .safe)
        #expect(step.code == "CK300")
        #expect(step.reason == "deprecates record type 'User'; it stays in production")
    }

    @Test func deletingAFieldIsForbidden() throws {
        let step = try onlyStep(F.development("Payload") { $0.fields.removeAll { $0.name == "note" } })
        #expect(step.changeClass == .forbidden)
        #expect(step.code == "CK302")
        #expect(step.reason == "field 'Payload.note' is in production and cannot be deleted")
        #expect(step.fix == "keep 'Payload.note' in the schema and mark it `deprecated: true` instead of deleting it")
        #expect(step.diagnostic.location == SourceLocation(file: "prod.yaml", line: 13, column: 5))
    }

    @Test func deprecatingAFieldIsSafeNotADeletion() throws {
        let step = try onlyStep(F.developmentField("note") { $0.isDeprecated = true })
        #expect(step.changeClass == .safe)
        #expect(step.change.kind == .deprecateField)
        #expect(step.reason == "deprecates field 'Payload.note'; it stays in production")
        #expect(step.fix == nil)
    }

    @Test func retypingAFieldIsForbidden() throws {
        let step = try onlyStep(F.developmentField("count") { $0.type = FieldType(.string) })
        #expect(step.changeClass == .forbidden)
        #expect(step.code == "CK303")
        #expect(step.reason == "field 'Payload.count' is int64 in production and cannot change type to string")
        #expect(step.fix == "keep 'count' as int64 and mark it `deprecated: true`, add a string field 'countV2' to the schema instead of changing the type; `ckschema migrate new` writes its addField, then add the data step that fills it to that migration: `- copy: { recordType: Payload, from: count, to: countV2 }`")
        // A change points at the development file's line.
        #expect(step.diagnostic.location == SourceLocation(file: "dev.yaml", line: 11, column: 5))
    }

    @Test func turningAFieldIntoAListIsARetype() throws {
        let step = try onlyStep(F.developmentField("count") { $0.type = .list(.int64) })
        #expect(step.code == "CK303")
        #expect(step.reason == "field 'Payload.count' is int64 in production and cannot change type to list<int64>")
    }

    @Test func encryptingAnExistingFieldIsForbidden() throws {
        let step = try onlyStep(F.developmentField("note") { $0.isEncrypted = true })
        #expect(step.changeClass == .forbidden)
        #expect(step.code == "CK304")
        #expect(step.reason == "field 'Payload.note' already exists in production and cannot become encrypted; CloudKit encrypts only new fields")
        // Issue 32 point 8: the field to declare and the migration line that fills it, as pasted.
        #expect(step.fix == "keep 'note' unencrypted and mark it `deprecated: true`, add the field `noteEncrypted: { type: string, encrypted: true }` to 'Payload' in the schema instead of encrypting 'note'; `ckschema migrate new` writes its addField, then add the data step that fills it to that migration: `- copy: { recordType: Payload, from: note, to: noteEncrypted }`")
        #expect(step.source.contains("Only encrypt new fields"))
    }

    @Test func decryptingAnExistingFieldIsForbidden() throws {
        let step = try onlyStep(F.developmentField("body") { $0.isEncrypted = false })
        #expect(step.changeClass == .forbidden)
        #expect(step.code == "CK305")
        #expect(step.reason == "field 'Payload.body' is encrypted in production and cannot stop being encrypted")
        // No data step copies an encrypted field into a plaintext one (CK517), so the app does.
        #expect(step.fix == "keep 'body' encrypted and mark it `deprecated: true`, add the field `bodyPlain: { type: bytes }` to 'Payload' in the schema instead of decrypting 'body'; `ckschema migrate new` writes its addField; no data step copies an encrypted field into a plaintext one (it would expose the values), so the app reads 'body' and writes 'bodyPlain'")
    }

    @Test func addingAnEncryptedFieldToAPrivateTypeIsSafe() throws {
        let step = try onlyStep(F.development("Payload") { $0.fields.append(Field(name: "secret", type: FieldType(.string), isEncrypted: true)) })
        #expect(step.changeClass == .safe)
        #expect(step.reason == "adds field 'Payload.secret' (string encrypted)")
    }

    @Test func addingAnEncryptedFieldToAPublicTypeIsForbidden() throws {
        let step = try onlyStep(F.development("Post") { $0.fields.append(Field(name: "secret", type: FieldType(.string), isEncrypted: true, origin: F.at("dev.yaml", 25))) })
        #expect(step.changeClass == .forbidden)
        #expect(step.code == "CK306")
        #expect(step.reason == "field 'Post.secret' is encrypted, but record type 'Post' is in the public database, which does not support encryption")
        #expect(step.fix == "store 'secret' unencrypted, or keep 'Post' in the private database")
        #expect(step.diagnostic.location == SourceLocation(file: "dev.yaml", line: 25, column: 5))
    }

    @Test func movingATypeWithEncryptedFieldsToThePublicDatabaseIsForbidden() throws {
        let from = F.production()
        var f = from
        f.recordTypes[0].zone = nil
        f.recordTypes[0].database = .private
        var to = f
        to.recordTypes[0].database = .public
        to.recordTypes[0].origin = F.at("dev.yaml", 8)
        let step = try onlyStep(to, from: f)
        #expect(step.changeClass == .forbidden)
        #expect(step.code == "CK306")
        #expect(step.reason == "record type 'Payload' moves to the public database, but its field 'body' is encrypted and the public database does not support encryption")
        #expect(step.fix == "keep 'Payload' in the private database")
    }

    @Test func aCustomZoneInThePublicDatabaseIsForbidden() throws {
        var to = F.development()
        to.zones.append(Zone(name: "Board", database: .public))
        let step = try onlyStep(to)
        #expect(step.changeClass == .forbidden)
        #expect(step.code == "CK307")
        #expect(step.reason == "zone 'Board' is in the public database, which has only its default zone")
        #expect(step.fix == "put 'Board' in the private database, or use the public database's default zone")
    }

    @Test func removingAnIndexNamesTheDeclaredQueriesThatNeedIt() throws {
        let step = try onlyStep(F.developmentField("capturedAt") { $0.indexes.remove(.sortable) })
        #expect(step.changeClass == .review)
        #expect(step.code == "CK310")
        #expect(step.change.description == "- index Payload.capturedAt sortable")
        #expect(step.reason == "removing the sortable index on 'Payload.capturedAt' breaks the declared queries that need it: recent")
        #expect(step.fix == "keep the index, or change those queries and wait until no app version in use runs them")
        #expect(step.diagnostic.severity == .warning)
    }

    @Test func removingAnIndexNoQueryNeedsIsStillReview() throws {
        let step = try onlyStep(F.developmentField("title") { $0.indexes.remove(.searchable) })
        #expect(step.changeClass == .review)
        #expect(step.code == "CK310")
        #expect(step.reason == "removing the searchable index on 'Payload.title' makes production refuse every query that searches it; no declared query needs it")
        #expect(step.fix == "check that no app version in use still runs such a query")
    }

    @Test func removingASystemFieldIndexIsReview() throws {
        var to = F.development("Payload") { $0.systemIndexes = [:] }
        to.queries.append(DeclaredQuery(recordType: "Payload", filter: ["recordName"]))
        let plan = PromotionPlan.compute(from: F.production(), to: to)
        let step = try #require(plan.steps.first { $0.change.kind == .removeIndex })
        #expect(step.change.description == "- index Payload.recordName queryable")
        #expect(step.change.isSystemField)
        #expect(step.reason == "removing the queryable index on 'Payload.recordName' breaks the declared queries that need it: Payload(filter: recordName)")
    }

    @Test func addingAnIndexToAnExistingTypeIsReview() throws {
        let step = try onlyStep(F.developmentField("count") { $0.indexes.insert(.sortable) })
        #expect(step.changeClass == .review)
        #expect(step.code == "CK311")
        #expect(step.change.description == "+ index Payload.count sortable")
        #expect(step.reason == "adds a sortable index on 'Payload.count' to record type 'Payload', which is already in production: the index must also cover the records already saved there")
        #expect(step.fix == "deploy the schema before the app version whose queries need the index, and check those queries in production")
    }

    @Test func addingATypeWithIndexesIsSafe() throws {
        var to = F.development()
        to.recordTypes.append(RecordType(name: "Tag", fields: [Field(name: "label", type: FieldType(.string), indexes: [.queryable])],
                                         systemIndexes: [.recordName: [.queryable]], grants: [Grant(role: "_world", permissions: [.read])]))
        let plan = PromotionPlan.compute(from: F.production(), to: to)
        #expect(plan.steps.map(\.change.description) == [
            "+ record type Tag",
            "+ index Tag.recordName queryable",
            "+ Tag.label string [queryable]",
            "+ grant Tag _world: read",
        ])
        #expect(plan.steps.allSatisfy { $0.changeClass == .safe })
        #expect(plan.steps.map(\.reason) == [
            "adds record type 'Tag'",
            "adds a queryable index on 'Tag.recordName'",
            "adds field 'Tag.label' (string [queryable])",
            "grants read on new record type 'Tag' to role '_world'",
        ])
    }

    @Test func changingGrantsIsReview() throws {
        let step = try onlyStep(F.development("Payload") { $0.grants[0].permissions = [.read, .write] })
        #expect(step.changeClass == .review)
        #expect(step.code == "CK312")
        #expect(step.change.description == "~ grant Payload _world: read -> read, write")
        #expect(step.reason == "role '_world' on record type 'Payload' changes from read to read, write")
        #expect(step.fix == "confirm that every app version in use still has the access it needs to 'Payload' records")
    }

    @Test func addingAndRemovingGrantsIsReview() throws {
        let to = F.development("Payload") { t in
            t.grants.removeAll { $0.role == "_world" }
            t.grants.append(Grant(role: "_icloud", permissions: [.create]))
        }
        let plan = PromotionPlan.compute(from: F.production(), to: to)
        #expect(plan.steps.map(\.reason) == [
            "role '_icloud' gains create on record type 'Payload', which is already in production",
            "role '_world' loses read on record type 'Payload', which is already in production",
        ])
        #expect(plan.steps.allSatisfy { $0.code == "CK312" && $0.changeClass == .review })
    }

    @Test func retargetingAReferenceIsReview() throws {
        let step = try onlyStep(F.developmentField("owner") { $0.referenceTarget = "Account" })
        #expect(step.changeClass == .review)
        #expect(step.code == "CK313")
        #expect(step.reason == "reference 'Payload.owner' now points to 'Account' instead of 'User'; references already saved still point to 'User' records")
        #expect(step.fix == "add a new reference field for 'Account' and backfill it, then mark 'owner' `deprecated: true`")
    }

    @Test func changingAReferenceActionIsReview() throws {
        let step = try onlyStep(F.developmentField("owner") { $0.referenceAction = .deleteSelf })
        #expect(step.code == "CK313")
        #expect(step.reason == "reference 'Payload.owner' changes its delete action from none to deleteSelf; references already saved keep the action they were saved with")
        #expect(step.fix == "re-save existing 'Payload' records to apply the new action")
    }

    @Test func movingATypeToAnotherZoneIsReview() throws {
        var to = F.development("Payload") { $0.zone = "Archive" }
        to.zones.append(Zone(name: "Archive", capabilities: [.fetchChanges, .atomic]))
        let plan = PromotionPlan.compute(from: F.production(), to: to)
        #expect(plan.steps.map(\.change.description) == [
            "+ zone Archive private [fetchChanges, atomic]",
            "~ record type Payload zone: Payloads -> Archive",
        ])
        let step = plan.steps[1]
        #expect(step.changeClass == .review)
        #expect(step.code == "CK314")
        #expect(step.reason == "record type 'Payload' moves from zone 'Payloads' to zone 'Archive'; CloudKit does not move the records already in 'Payloads'")
        #expect(step.fix == "copy existing 'Payload' records to 'Archive' in a migration, or keep the zone")
        #expect(plan.steps[0].changeClass == .safe)
    }

    @Test func zoneChangesAreReview() throws {
        var to = F.development()
        to.zones[0].capabilities = [.fetchChanges, .atomic, .sharing]
        let step = try onlyStep(to)
        #expect(step.changeClass == .review)
        #expect(step.code == "CK315")
        #expect(step.reason == "zone 'Payloads' gains the sharing capability; zones already created keep the capabilities they were created with")
        #expect(step.fix == "check `CKRecordZone.capabilities` at run time before relying on sharing")

        var removed = F.development()
        removed.zones = []
        removed.recordTypes[0].zone = nil
        let r = try #require(PromotionPlan.compute(from: F.production(), to: removed).steps.first)
        #expect(r.code == "CK315")
        #expect(r.reason == "zone 'Payloads' is no longer in the schema; the zones users already have, and their records, stay until the app deletes them")
    }

    @Test func removingARoleIsReview() throws {
        var to = F.development()
        to.roles = []
        let step = try onlyStep(to)
        #expect(step.changeClass == .review)
        #expect(step.code == "CK316")
        #expect(step.reason == "security role 'Editor' is in production and is removed; users who hold it lose what it grants")
        #expect(step.fix == "keep the role until no record type grants to it and no user relies on it")
    }

    @Test func differentContainersAreReview() throws {
        var to = F.development()
        to.container = "iCloud.com.example.other"
        let step = try onlyStep(to)
        #expect(step.changeClass == .review)
        #expect(step.code == "CK317")
        #expect(step.reason == "the schemas are for different containers: 'iCloud.com.example.app' and 'iCloud.com.example.other'")
    }

    @Test func additionsAreSafe() throws {
        var to = F.development("Payload") { $0.fields.append(Field(name: "subtitle", type: FieldType(.string), indexes: [.queryable])) }
        to.roles.append(Role(name: "Admin"))
        to.queries.append(DeclaredQuery(recordType: "User", filter: ["name"]))
        let plan = PromotionPlan.compute(from: F.production(), to: to)
        #expect(plan.steps.map(\.reason) == [
            "adds security role 'Admin'",
            "adds field 'Payload.subtitle' (string [queryable])",
            "declares query User(filter: name)",
        ])
        #expect(plan.steps.allSatisfy { $0.changeClass == .safe && $0.code == "CK300" && $0.diagnostic.severity == .note })
        #expect(!plan.fails(on: .review))
        #expect(plan.fails(on: .safe))
    }

    @Test func failOnPicksTheThreshold() {
        let review = PromotionPlan.compute(from: F.production(), to: F.developmentField("count") { $0.indexes.insert(.sortable) })
        #expect(!review.fails(on: .forbidden))
        #expect(review.fails(on: .review))
        let forbidden = PromotionPlan.compute(from: F.production(), to: F.developmentField("count") { $0.type = FieldType(.double) })
        #expect(forbidden.fails(on: .forbidden))
        #expect(forbidden.diagnostics(minimum: .review).map(\.code) == ["CK303"])
    }

    @Test func everyRuleHasAUniqueCodeInTheCatalog() {
        let codes = PromotionRules.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        // CK630-CK633: the production rules for a Core Data model (docs/coredata.md); CK750
        // (subscription-changed) is run time's: its codes are CK7xx.
        #expect(codes.allSatisfy { $0.hasPrefix("CK3") || $0.hasPrefix("CK63") || $0 == "CK750" })
        for code in codes { #expect(RuleCatalog.info(code) != nil) }
        #expect(ProductionRules.all.allSatisfy { !$0.info.source.isEmpty })
    }

    /// CK303's fix names the data step that works for the two types (`RetypeAdvice`): a
    /// lossless retype is a copy, an int64 becomes a double by an expression, and a
    /// conversion no step makes says so. End to end: ProductionLoopTests.theRetypeAdviceIsAMigrationLineThatApplies.
    @Test func theRetypeFixNamesTheDataStepThatWorks() {
        let f = { (t: FieldType) in Field(name: "count", type: t) }
        #expect(RetypeAdvice.dataStep(recordType: "Note", from: "count", old: f(FieldType(.int64)), to: "countV2", new: f(FieldType(.string)))
            == "- copy: { recordType: Note, from: count, to: countV2 }")
        #expect(RetypeAdvice.dataStep(recordType: "Note", from: "count", old: f(FieldType(.int64)), to: "countV2", new: f(FieldType(.double)))
            == #"- backfill: { recordType: Note, field: countV2, expression: "count * 1.0" }"#)
        #expect(RetypeAdvice.dataStep(recordType: "Note", from: "count", old: f(FieldType(.string)), to: "countV2", new: f(FieldType(.int64))) == nil)
    }
}
