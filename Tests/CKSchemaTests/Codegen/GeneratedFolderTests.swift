import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaCodegen

/// `GeneratedFolder.write` through the library: a file whose bytes did not change is not
/// written again, and the folder is still replaced all at once or not at all.
@Suite struct GeneratedFolderTests {
    static let header = GeneratedFolder.headerPrefix + "s.yaml; do not edit\n\n"

    static func file(_ name: String, _ body: String) -> SwiftGenerator.File {
        SwiftGenerator.File(name: name, text: header + body)
    }

    /// The file's inode and modification date: what a rewrite would change.
    static func identity(_ path: String) throws -> [String] {
        let a = try FileManager.default.attributesOfItem(atPath: path)
        return ["\(a[.systemFileNumber] ?? "none")", "\(a[.modificationDate] ?? "none")"]
    }

    @Test func theSameFilesTouchNothing() throws {
        let dir = try makeTempDir("ckschema-folder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = [Self.file("A.swift", "struct A {}\n"), Self.file("B.swift", "struct B {}\n")]
        #expect(try GeneratedFolder.write(files, to: dir + "/Gen") == .replaced(rewritten: 2))
        let before = try ["A.swift", "B.swift"].map { try Self.identity(dir + "/Gen/" + $0) }
        #expect(try GeneratedFolder.write(files, to: dir + "/Gen") == .unchanged)
        #expect(try ["A.swift", "B.swift"].map { try Self.identity(dir + "/Gen/" + $0) } == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["Gen"])
    }

    @Test func onlyTheChangedFilesAreWrittenAndStaleOnesGo() throws {
        let dir = try makeTempDir("ckschema-folder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = Self.file("A.swift", "struct A {}\n")
        try GeneratedFolder.write([a, Self.file("B.swift", "struct B {}\n"), Self.file("C.swift", "struct C {}\n")], to: dir + "/Gen")
        let kept = try Self.identity(dir + "/Gen/A.swift")
        // B changes (one byte, same size: the bytes are compared, not only the sizes); C is gone.
        #expect(try GeneratedFolder.write([a, Self.file("B.swift", "struct b {}\n")], to: dir + "/Gen") == .replaced(rewritten: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/Gen").sorted() == ["A.swift", "B.swift"])
        #expect(try Self.identity(dir + "/Gen/A.swift") == kept)
        #expect(try read(dir + "/Gen/B.swift") == Self.header + "struct b {}\n")
        // A file set that differs only by a stale file is a replacement too.
        #expect(try GeneratedFolder.write([a], to: dir + "/Gen") == .replaced(rewritten: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/Gen") == ["A.swift"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["Gen"])
    }

    @Test func aFailedWriteLeavesTheOldFolderAsItWas() throws {
        let dir = try makeTempDir("ckschema-folder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = Self.file("A.swift", "struct A {}\n"), b = Self.file("B.swift", "struct B {}\n")
        try GeneratedFolder.write([a, b], to: dir + "/Gen")
        let before = try Self.identity(dir + "/Gen/A.swift")
        // A unchanged (linked into the staging folder), B changed, and a file that cannot be
        // created (its folder does not exist): the staging folder goes, the old folder stays.
        let broken = [a, Self.file("B.swift", "struct B2 {}\n"), Self.file("missing/C.swift", "struct C {}\n")]
        #expect(throws: InputError.self) { try GeneratedFolder.write(broken, to: dir + "/Gen") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["Gen"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/Gen").sorted() == ["A.swift", "B.swift"])
        #expect(try read(dir + "/Gen/A.swift") == a.text)
        #expect(try read(dir + "/Gen/B.swift") == b.text)
        #expect(try Self.identity(dir + "/Gen/A.swift") == before)
    }

    @Test func aFileWithoutTheHeaderIsStillRefused() throws {
        let dir = try makeTempDir("ckschema-folder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = Self.file("A.swift", "struct A {}\n")
        try GeneratedFolder.write([a], to: dir + "/Gen")
        // The same size as the file to write, but not the generator's: refused, not replaced.
        let mine = String(repeating: "x", count: a.text.utf8.count)
        try Data(mine.utf8).write(to: URL(fileURLWithPath: dir + "/Gen/A.swift"))
        #expect(throws: InputError.self) { try GeneratedFolder.write([a], to: dir + "/Gen") }
        #expect(try read(dir + "/Gen/A.swift") == mine)
        // A folder named like a Swift file is not a generated file either.
        try FileManager.default.removeItem(atPath: dir + "/Gen/A.swift")
        try FileManager.default.createDirectory(atPath: dir + "/Gen/A.swift", withIntermediateDirectories: false)
        #expect(throws: InputError.self) { try GeneratedFolder.write([a], to: dir + "/Gen") }
    }
}
