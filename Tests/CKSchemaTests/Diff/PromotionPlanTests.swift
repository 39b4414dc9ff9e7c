import Foundation
import Testing
import CKSchema

@Suite struct PromotionPlanTests {
    typealias F = PromoteFixtures

    private func forbiddenPlan() -> PromotionPlan {
        PromotionPlan.compute(from: F.production(), to: F.developmentField("count") { $0.type = FieldType(.string) })
    }

    @Test func planRecordsTheHashesOfBothSchemas() {
        let to = F.developmentField("count") { $0.type = FieldType(.string) }
        let plan = PromotionPlan.compute(from: F.production(), to: to)
        #expect(plan.fromHash == F.production().canonicalHash)
        #expect(plan.toHash == to.canonicalHash)
        #expect(plan.fromHash.count == 64)
    }

    @Test func planFileRoundTripsWithItsHeader() throws {
        let plan = forbiddenPlan()
        let data = plan.jsonData
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "ckschema-plan")
        #expect(object["version"] as? Int == 3)
        #expect(object["stepsSha256"] as? String == plan.stepsHash)
        #expect((object["from"] as? [String: Any])?["sha256"] as? String == plan.fromHash)
        #expect((object["summary"] as? [String: Int]) == ["safe": 0, "review": 0, "forbidden": 1])
        let step = try #require((object["steps"] as? [[String: Any]])?.first)
        #expect(step["class"] as? String == "forbidden")
        #expect(step["code"] as? String == "CK303")
        #expect((step["change"] as? [String: Any])?["text"] as? String == "~ Payload.count type: int64 -> string")
        let back = try PromotionPlan.decode(data, file: "plan.json")
        #expect(back == plan)
    }

    @Test func aPlanForTheSameSchemasVerifies() throws {
        let to = F.developmentField("count") { $0.type = FieldType(.string) }
        let plan = try PromotionPlan.decode(forbiddenPlan().jsonData, file: "plan.json")
        try plan.verify(from: F.production(), to: to, file: "plan.json")
    }

    @Test func aStalePlanSaysWhichSchemaChanged() throws {
        let plan = forbiddenPlan()
        let editedDev = F.developmentField("count") { $0.type = FieldType(.double) }
        let error = try #require(throws: InputError.self) { try plan.verify(from: F.production(), to: editedDev, file: "plan.json") }
        let d = try #require(error.diagnostics.first)
        #expect(d.code == "CK392")
        #expect(d.message == "'plan.json' is stale: the development (to) schema has changed since the plan was computed (sha256 \(plan.toHash.prefix(12)) in the plan, \(editedDev.canonicalHash.prefix(12)) now)")
        #expect(d.location == SourceLocation(file: "plan.json", line: 1, column: 1))

        var editedProd = F.production()
        editedProd.roles = []
        let e2 = try #require(throws: InputError.self) { try plan.verify(from: editedProd, to: editedDev, file: "plan.json") }
        #expect(e2.diagnostics.first?.message == "'plan.json' is stale: both schemas have changed since the plan was computed")
        let e3 = try #require(throws: InputError.self) {
            try plan.verify(from: editedProd, to: F.developmentField("count") { $0.type = FieldType(.string) }, file: "plan.json")
        }
        #expect(e3.diagnostics.first?.message.hasPrefix("'plan.json' is stale: the production (from) schema has changed since the plan was computed (sha256 ") == true)
    }

    @Test func aFileThatIsNotJSONIsRefused() throws {
        let error = try #require(throws: InputError.self) { try PromotionPlan.decode(Data("steps: []\n".utf8), file: "plan.yaml") }
        #expect(error.diagnostics.map(\.code) == ["CK390"])
        #expect(error.diagnostics.first?.message == "'plan.yaml' is not JSON, so it is not a ckschema plan")
    }

    @Test func jsonThatIsNotAPlanIsRefused() throws {
        let error = try #require(throws: InputError.self) { try PromotionPlan.decode(Data(#"{"changes": []}"#.utf8), file: "diff.json") }
        #expect(error.diagnostics.map(\.code) == ["CK390"])
        #expect(error.diagnostics.first?.message == #"'diff.json' is JSON but not a ckschema plan (it has no "format": "ckschema-plan")"#)
    }

    @Test func anotherFormatVersionIsRefused() throws {
        // Version 1 bound only the two schemas, not the steps: such a plan is computed again.
        let text = #"{"format": "ckschema-plan", "version": 1, "from": {"sha256": "a"}, "to": {"sha256": "b"}, "steps": []}"#
        let error = try #require(throws: InputError.self) { try PromotionPlan.decode(Data(text.utf8), file: "plan.json") }
        #expect(error.diagnostics.map(\.code) == ["CK391"])
        #expect(error.diagnostics.first?.message == "'plan.json' is version 1 of the plan format; this ckschema reads version 3")
    }

    @Test func aMalformedPlanIsRefused() throws {
        let text = #"{"format": "ckschema-plan", "version": 3, "to": {"sha256": "b"}, "steps": []}"#
        let error = try #require(throws: InputError.self) { try PromotionPlan.decode(Data(text.utf8), file: "plan.json") }
        #expect(error.diagnostics.map(\.code) == ["CK390"])
        #expect(error.diagnostics.first?.message == "'plan.json' is a malformed ckschema plan: missing key 'from'")
    }

    /// One verdict from one run: a lint error no longer hides the promotion's findings.
    @Test func lintErrorsComeFirstAndThePlanIsReportedBesideThem() {
        let lintError = Diagnostic.error("CK101", "field 'body' is encrypted and cannot be queryable", at: SourceLocation(file: "dev.yaml", line: 12, column: 5))
        let lintWarning = Diagnostic.warning("CK150", "a warning", at: nil)
        let to = F.developmentField("count") { $0.type = FieldType(.string) }
        let broken = Promoter.check(from: F.production(), to: to, linter: { _ in [lintError, lintWarning] })
        #expect(broken.plan.steps.count == 1)
        #expect(broken.diagnostics().map(\.code) == ["CK101", "CK303"])
        #expect(broken.fails())

        let sound = Promoter.check(from: F.production(), to: to, linter: { _ in [lintWarning] })
        #expect(sound.lintErrors.isEmpty)
        #expect(sound.plan.steps.count == 1)
        #expect(sound.diagnostics().map(\.code) == ["CK303"])
        #expect(sound.fails(on: .forbidden))
    }
}

@Suite struct PromotionPlanHashingTests {
    @Test func aPlanWithoutHashingHasTheSameStepsAndNoHashes() {
        let to = PromoteFixtures.developmentField("count") { $0.type = FieldType(.string) }
        let hashed = PromotionPlan.compute(from: PromoteFixtures.production(), to: to)
        let bare = PromotionPlan.compute(from: PromoteFixtures.production(), to: to, hashing: false)
        #expect(bare.steps == hashed.steps)
        #expect(bare.fromHash.isEmpty && bare.toHash.isEmpty)
        #expect(!hashed.fromHash.isEmpty)
    }
}

@Suite struct PromoterLoadTests {
    @Test func loadsBothSchemasAndReportsTheErrorsOfBoth() throws {
        let (from, to) = try SchemaSource.loadPair(from: Paths.root + "/Schemas/production.yaml", to: Paths.root + "/Schemas/development.yaml")
        #expect(from.recordType(named: "Companion") == nil)
        #expect(to.recordType(named: "Companion") != nil)
        let error = try #require(throws: InputError.self) { try SchemaSource.loadPair(from: "/nonexistent/a.yaml", to: "/nonexistent/b.yaml") }
        #expect(error.diagnostics.map(\.location?.file) == ["/nonexistent/a.yaml", "/nonexistent/b.yaml"])
        let one = try #require(throws: InputError.self) { try SchemaSource.loadPair(from: Paths.root + "/Schemas/production.yaml", to: "/nonexistent/b.yaml") }
        #expect(one.diagnostics.map(\.location?.file) == ["/nonexistent/b.yaml"])
    }
}
