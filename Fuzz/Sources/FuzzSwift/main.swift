import Foundation
import FuzzDriver
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaCoreData
@testable import CKSchemaSwift
@testable import CKSchemaLinter

/// The Swift lexer and the SwiftData declaration reader: tokens must partition the input,
/// every bracket partner must point back, and what reads must map and lint.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSwift(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let source = SwiftSource(bytes: bytes, file: "fuzz.swift")
    var at: Int32 = 0
    for t in source.tokens {
        precondition(t.triviaStart == at && t.start >= t.triviaStart && t.end >= t.start, "tokens do not partition the input at \(at)")
        at = t.end
    }
    precondition(Int(at) == count && source.tokens.last?.kind == .endOfFile, "the tokens stop at \(at) of \(count)")
    for (i, p) in source.partner.enumerated() where p >= 0 { precondition(source.partner[Int(p)] == Int32(i), "bracket partners disagree at \(i)") }
    _ = source.diagnostics(rule: SwiftRules.syntax)
    guard let model = try? SwiftModelReader.read([("fuzz.swift", bytes)], path: "fuzz.swift") else { return 0 }
    if let schema = try? CoreDataMapping.schema(for: model) { _ = Linter().lint(schema) }
    return 0
}

runFuzzer(fuzzSwift)
