import Testing
import CKSchema

@Suite struct SchemaDiffTests {
    typealias F = PromoteFixtures

    @Test func sameSchemaFromAnotherFileHasNoChanges() {
        let diff = SchemaDiff.compute(from: F.production(), to: F.development())
        #expect(diff.isEmpty)
        #expect(diff.text == "")
    }

    @Test func textIsGroupedByRecordTypeInAStableOrder() {
        var to = F.development("Payload") { t in
            t.fields.removeAll { $0.name == "note" }
            t.fields.append(Field(name: "headline", type: FieldType(.string), indexes: [.queryable, .searchable]))
            let i = t.fields.firstIndex { $0.name == "capturedAt" }!
            t.fields[i].indexes = [.queryable]
            let j = t.fields.firstIndex { $0.name == "count" }!
            t.fields[j].type = FieldType(.double)
            t.systemIndexes[.createdAt] = [.sortable]
        }
        to.roles.append(Role(name: "Admin"))
        to.zones.append(Zone(name: "Drafts", capabilities: [.fetchChanges]))
        to.recordTypes.append(RecordType(name: "Attachment", fields: [
            Field(name: "file", type: FieldType(.asset)),
            Field(name: "payload", type: FieldType(.reference), indexes: [.queryable], referenceTarget: "Payload", referenceAction: .deleteSelf),
        ]))
        to.recordTypes.removeAll { $0.name == "Post" }
        let diff = SchemaDiff.compute(from: F.production(), to: to)
        #expect(diff.text == """
            container
              + zone Drafts private [fetchChanges]
              + role Admin

            record type Attachment
              + record type Attachment
              + Attachment.file asset
              + Attachment.payload reference -> Payload deleteSelf [queryable]

            record type Payload
              + index Payload.createdAt sortable
              - index Payload.capturedAt sortable
              ~ Payload.count type: int64 -> double
              + Payload.headline string [queryable, searchable]
              - Payload.note string

            record type Post
              - record type Post in the public database

            """)
        // The same inputs give the same order, whatever the source order.
        var shuffled = to
        shuffled.recordTypes.reverse()
        #expect(SchemaDiff.compute(from: F.production(), to: shuffled).changes == diff.changes)
    }

    @Test func changesCarryTheOriginOfTheirElement() throws {
        let to = F.development("Payload") { t in
            t.fields.removeAll { $0.name == "note" }
            t.fields.append(Field(name: "headline", type: FieldType(.string), origin: F.at("dev.yaml", 16)))
        }
        let diff = SchemaDiff.compute(from: F.production(), to: to)
        let added = try #require(diff.changes.first { $0.kind == .addField })
        #expect(added.origin.location == SourceLocation(file: "dev.yaml", line: 16, column: 5))
        let removed = try #require(diff.changes.first { $0.kind == .removeField })
        #expect(removed.origin.location == SourceLocation(file: "prod.yaml", line: 13, column: 5))
        let edited = SchemaDiff.compute(from: F.production(), to: F.developmentField("count") { $0.type = FieldType(.string) })
        #expect(edited.changes.first?.origin.location == SourceLocation(file: "dev.yaml", line: 11, column: 5))
        #expect(edited.changes.first?.fromOrigin.location == SourceLocation(file: "prod.yaml", line: 11, column: 5))
    }

    @Test func aPropertyOneSideDoesNotStateIsNotAChange() {
        // A .ckdb export has no zones of record types, reference targets, descriptions or queries' places.
        var from = F.production()
        from.recordTypes[0].zone = nil
        from.recordTypes[0].fields[4].referenceTarget = nil
        from.recordTypes[0].fields[4].referenceAction = nil
        from.recordTypes[0].fields[0].description = nil
        var to = F.developmentField("title") { $0.description = "The title shown in lists" }
        #expect(SchemaDiff.compute(from: from, to: to).isEmpty)
        // A record type with no grants says nothing of its grants.
        to = F.development("Payload") { $0.grants = [] }
        #expect(SchemaDiff.compute(from: F.production(), to: to).isEmpty)
    }

    @Test func everyKindOfFieldChangeIsReported() {
        let to = F.developmentField("owner") { f in
            f.referenceTarget = "Account"
            f.referenceAction = .deleteSelf
            f.isDeprecated = true
            f.indexes = [.sortable]
        }
        var from = F.production()
        from.recordTypes[0].fields[4].description = "who"
        var to2 = to
        to2.recordTypes[0].fields[4].description = "owner"
        #expect(SchemaDiff.compute(from: from, to: to2).changes.map(\.description) == [
            "~ Payload.owner reference target: User -> Account",
            "~ Payload.owner reference action: none -> deleteSelf",
            "~ Payload.owner deprecated",
            "~ Payload.owner description: \"who\" -> \"owner\"",
            "- index Payload.owner queryable",
            "+ index Payload.owner sortable",
        ])
    }

    @Test func queriesAreComparedByContent() {
        var to = F.development()
        to.queries = [
            DeclaredQuery(recordType: "Payload", filter: ["capturedAt"], sort: ["capturedAt"], name: "recent", origin: F.at("dev.yaml", 40)),
            DeclaredQuery(recordType: "Payload", filter: ["title"]),
        ]
        #expect(SchemaDiff.compute(from: F.production(), to: to).changes.map(\.description) == ["+ query Payload(filter: title)"])
        to.queries.removeFirst()
        #expect(SchemaDiff.compute(from: F.production(), to: to).changes.map(\.description) == [
            "- query recent",
            "+ query Payload(filter: title)",
        ])
    }

    @Test func recordTypeLevelChanges() {
        var from = F.production()
        from.recordTypes[1].description = "a person"
        var to = F.development("User") { t in
            t.isDeprecated = true
            t.description = "an account"
        }
        to.recordTypes[2].database = .private
        #expect(SchemaDiff.compute(from: from, to: to).changes.map(\.description) == [
            "~ record type Post database: public -> private",
            "~ record type User deprecated",
            "~ record type User description: \"a person\" -> \"an account\"",
        ])
    }

    @Test func zoneChanges() {
        var to = F.development()
        to.zones[0].database = .shared
        to.zones[0].capabilities = [.fetchChanges, .sharing]
        #expect(SchemaDiff.compute(from: F.production(), to: to).changes.map(\.description) == [
            "~ zone Payloads database: private -> shared",
            "- zone Payloads capability atomic",
            "+ zone Payloads capability sharing",
        ])
    }

    @Test func diffJSONCarriesKindTextAndLocation() throws {
        let diff = SchemaDiff.compute(from: F.production(), to: F.developmentField("count") { $0.type = FieldType(.string) })
        let json = String(decoding: diff.jsonData, as: UTF8.self)
        #expect(json == """
            {
              "changes": [
                {
                  "after": "string",
                  "before": "int64",
                  "field": "count",
                  "fromLocation": {
                    "column": 5,
                    "file": "prod.yaml",
                    "line": 11
                  },
                  "kind": "changeFieldType",
                  "location": {
                    "column": 5,
                    "file": "dev.yaml",
                    "line": 11
                  },
                  "recordType": "Payload",
                  "text": "~ Payload.count type: int64 -> string"
                }
              ],
              "format": "ckschema-diff",
              "version": 1
            }

            """)
    }
}

@Suite struct SystemRecordTypeDiffTests {
    @Test func aSystemTypeOneSideOmitsIsNotDeletedOrAdded() {
        var from = PromoteFixtures.production()
        from.recordTypes.append(RecordType(name: "Users", fields: [Field(name: "roles", type: .list(.int64)), Field(name: "handle", type: FieldType(.string))]))
        // Development omits Users: CloudKit still has it, so nothing changes.
        #expect(SchemaDiff.compute(from: from, to: PromoteFixtures.development()).isEmpty)
        // Development lists Users with a field production does not know: only the field is new.
        var to = PromoteFixtures.development()
        to.recordTypes.append(RecordType(name: "Users", fields: [Field(name: "nickname", type: FieldType(.string)), Field(name: "roles", type: .list(.int64))]))
        let plan = PromotionPlan.compute(from: PromoteFixtures.production(), to: to)
        #expect(plan.steps.map(\.change.description) == ["+ Users.nickname string"])
        #expect(plan.steps.map(\.changeClass) == [.safe])
        // Every container's Users has `roles`, and CloudKit keeps it: a Users type listed without
        // it leaves it unstated (the export adds it back), never deletes it. This was a false
        // CK302 on Trailmark's first migration against an empty store (issue 22).
        let noRoles = PromotionPlan.compute(from: PromoteFixtures.production(), to: PromoteFixtures.development().withUsers([]))
        #expect(noRoles.steps.map(\.reason) == [])
        // Both list Users and development drops its own field: a forbidden deletion as for any type.
        let dropped = PromotionPlan.compute(from: from, to: PromoteFixtures.development().withUsers([]))
        #expect(dropped.steps.map(\.reason) == ["field 'Users.handle' is in production and cannot be deleted"])
    }
}

private extension Schema {
    func withUsers(_ fields: [Field]) -> Schema {
        var s = self
        s.recordTypes.append(RecordType(name: "Users", fields: fields))
        return s
    }
}
