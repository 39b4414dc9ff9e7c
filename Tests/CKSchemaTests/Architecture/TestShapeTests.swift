import Foundation
import Testing

/// Tests that can fail: the binary under test is the one built from these sources, and a skip
/// is a skip (`.enabled(if:)` with its reason, shown as skipped), never a `print` and `return`
/// that counts as a pass.
@Suite struct TestShapeTests {
    static func files(under dir: String, ending suffix: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(suffix) }.map { dir + "/" + $0 }
    }

    static func modified(_ path: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast
    }

    @Test func theBinaryUnderTestIsBuiltFromTheseSources() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Paths.binary), "\(Paths.binary) is the built ckschema")
        let built = Self.modified(Paths.binary)
        let sources = Self.files(under: Paths.root + "/Sources", ending: ".swift")
        #expect(sources.count > 150)
        let newer = sources.filter { Self.modified($0) > built }
        #expect(newer.isEmpty, "the binary under test is older than \(newer.count) source files (\(newer.prefix(3).joined(separator: ", "))): rebuild")
    }

    /// A skip written as a printed note and a `return` passes silently; `.enabled(if:)`
    /// reports the test as skipped with its reason.
    @Test func noTestSkipsByPrintingAndReturning() throws {
        var offenders: [String] = []
        // A call of `print` whose text starts with "note" or "skip": the shape such a skip took.
        let skipShape = #"print\(\s*"(note|skip)"#
        for path in Self.files(under: Paths.root + "/Tests/CKSchemaTests", ending: ".swift") where !path.hasSuffix("/TestShapeTests.swift") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            if text.range(of: skipShape, options: .regularExpression) != nil { offenders.append(path) }
        }
        // The pattern itself finds the shape it is for.
        #expect("    print(\"note: zsh is missing\")\n    return".range(of: skipShape, options: .regularExpression) != nil)
        #expect(offenders.isEmpty, "skips must be .enabled(if:) with a reason: \(offenders)")
    }
}
