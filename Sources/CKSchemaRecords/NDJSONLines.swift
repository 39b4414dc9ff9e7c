import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The records of an NDJSON file or of standard input (`-`) for `records import`, read by
/// `validate`'s reader and split by its line splitter (`RecordChunk.forEachLine`): memory
/// stays bounded by the block size and the per-line cap (16 MB,
/// `RecordChunkReader.maxRecordBytes`), and a longer line is skipped with the same CK400
/// `validate` gives, never held whole. Standard input is read as NDJSON, never as YAML.
package enum NDJSONLines {
    /// One line, or a line over the cap (with `validate`'s message).
    package enum Item {
        case line(number: Int, bytes: UnsafeRawBufferPointer)
        case tooLong(number: Int, message: String)
    }

    /// How the file is named in diagnostics: `<stdin>` for `-`, as `validate` names it.
    package static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Calls `body` for every line of `path` in order; blank lines, which hold no record, are skipped.
    /// Throws `InputError` (CK001) when the file cannot be opened or read.
    package static func read(path: String, _ body: (Item) throws -> Void) throws {
        let name = displayName(path)
        func unreadable(_ m: String) -> InputError {
            InputError(Diagnostic(rule: InputRules.unreadable, m, at: SourceLocation(file: name, line: 1, column: 1)))
        }
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw unreadable("cannot read '\(path)': no such file") }
            if isDirectory.boolValue { throw unreadable("'\(path)' is a folder where a record file was expected") }
            fd = open(path, O_RDONLY)
            if fd < 0 { throw unreadable("cannot open '\(path)': \(String(cString: strerror(errno)))") }
        }
        defer { if fd != 0 { close(fd) } }
        let reader = RecordChunkReader(fd: fd, mode: .ndjson)
        var line = 0
        while true {
            let chunk: RecordChunk?
            do { chunk = try reader.next() } catch { throw unreadable("cannot read '\(name)': \(error.message)") }
            guard let chunk else { return }
            if !chunk.readerProblems.isEmpty {
                // The reader skipped an over-long line (it reports it as one marker chunk).
                for p in chunk.readerProblems {
                    line += 1
                    try body(.tooLong(number: line, message: p.message))
                }
                continue
            }
            let p = UnsafeRawPointer(chunk.bytes)
            let before = line
            line += try chunk.forEachLine { l, start, end in
                guard !chunk.isBlank(start, end) else { return }
                try body(.line(number: before + l + 1, bytes: UnsafeRawBufferPointer(start: p + start, count: end - start)))
            }
            // The block's last line ends in a newline unless it is the input's last.
            if chunk.count > 0, chunk.bytes[chunk.count - 1] != 0x0A { line += 1 }
        }
    }
}
