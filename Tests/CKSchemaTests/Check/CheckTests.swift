import Foundation
import Testing
import CKSchema

/// The CI gate through its library entry point (`Check.run`); CLITests runs it through the binary.
@Suite struct CheckTests {
    @Test func theExampleRepositoryPassesWithOneReviewWarning() throws {
        let config = try #require(try Configuration.find(from: Paths.root))
        let report = Check.run(config)
        #expect(report.ran == ["lint", "promote", "validate", "migrations", "scan"])
        #expect(!report.failed)
        #expect(report.diagnostics.filter { $0.severity == .warning }.map(\.code) == ["CK311"])
        #expect(!report.fails(on: .error))
        #expect(report.fails(on: .warning))
    }

    @Test func aMalformedSchemaStopsTheGateOnce() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Schemas", withIntermediateDirectories: true)
        try "ckschema: 1\nschemas: { development: Schemas/dev.yaml, production: Schemas/dev.yaml }\n"
            .write(toFile: dir + "/ckschema.yaml", atomically: true, encoding: .utf8)
        try "ckschema: 1\nrecordTypes:\n  Note:\n    feilds: {}\n".write(toFile: dir + "/Schemas/dev.yaml", atomically: true, encoding: .utf8)
        let report = Check.run(try Configuration.load(path: dir + "/ckschema.yaml"))
        #expect(report.failed)
        #expect(report.ran == ["lint", "promote"])
        #expect(report.diagnostics.map(\.code) == ["CK011"])
    }
}
