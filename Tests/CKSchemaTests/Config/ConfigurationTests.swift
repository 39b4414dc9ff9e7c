import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

@Suite struct ConfigurationTests {
    @Test func repositoryConfigurationResolvesPaths() throws {
        let config = try Configuration.load(path: Paths.root + "/ckschema.yaml")
        #expect(config.developmentSchema == Paths.root + "/Schemas/development.yaml")
        #expect(config.productionSchema == Paths.root + "/Schemas/production.yaml")
        #expect(config.migrations == Paths.root + "/Migrations")
        #expect(config.failOn == .error)
    }

    @Test func foundFromASubfolder() throws {
        let config = try #require(try Configuration.find(from: Paths.root + "/Schemas"))
        #expect(config.developmentSchema?.hasSuffix("Schemas/development.yaml") == true)
    }

    @Test func malformedConfigurationIsReported() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ckschema.yaml"
        try "ckschema: 1\nschemas: { developmnt: a.yaml }\nlint: { disable: [CK999] }\ncheck: [lint, promte]\n".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try Configuration.load(path: path)
            Issue.record("loaded a malformed configuration")
        } catch {
            let messages = error.diagnostics.map(\.message)
            #expect(messages.contains { $0.contains("unknown key 'developmnt'") && $0.contains("did you mean 'development'?") })
            #expect(messages.contains { $0.contains("'promte' is not a check; did you mean 'promote'?") })
        }
        // Rule codes are checked against the catalog, which sits above the configuration.
        try "ckschema: 1\nlint: { disable: [CK999] }\npromote: { severity: { CK31: note } }\n".write(toFile: path, atomically: true, encoding: .utf8)
        let config = try Configuration.load(path: path)
        let unknown = RuleCatalog.unknownCodes(in: config)
        #expect(unknown.map(\.message) == ["'CK999' is not a rule code; did you mean 'CK909'?", "'CK31' is not a rule code; did you mean 'CK301'?"])
        #expect(unknown.map { $0.location?.line } == [2, 3])
    }
}
