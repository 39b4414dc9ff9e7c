import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lines of an NDJSON file or of standard input (`-`), read in blocks by the reader
/// `validate` uses: memory stays bounded by the block size and the per-line cap (16 MB,
/// `RecordChunkReader.maxRecordBytes`), and a longer line is skipped with the same CK400
/// `validate` gives, never held whole. Standard input is read as NDJSON, never as YAML.
enum NDJSONLines {
    /// One line, or a line over the cap (with `validate`'s message).
    enum Item {
        case line(number: Int, bytes: UnsafeRawBufferPointer)
        case tooLong(number: Int, message: String)
    }

    /// How the file is named in diagnostics: `<stdin>` for `-`, as `validate` names it.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Calls `body` for every line of `path` in order (blank lines included: the caller skips them).
    /// Throws `InputError` (CK001) when the file cannot be opened or read.
    static func read(path: String, _ body: (Item) throws -> Void) throws {
        let name = displayName(path)
        func unreadable(_ m: String) -> InputError {
            InputError(.error(InputRules.unreadable.code, m, at: SourceLocation(file: name, line: 1, column: 1)))
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
            let n = chunk.count
            var start = 0
            while start < n {
                var end = n
                if let nl = memchr(p + start, 0x0A, n - start) { end = p.distance(to: UnsafeRawPointer(nl)) }
                line += 1
                try body(.line(number: line, bytes: UnsafeRawBufferPointer(start: p + start, count: end - start)))
                start = end + 1
            }
        }
    }
}
