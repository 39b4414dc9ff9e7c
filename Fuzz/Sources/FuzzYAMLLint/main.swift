import Foundation
import FuzzDriver
@testable import CKSchema

/// The YAML schema loader, then every lint rule over what it loaded. Any input may be
/// refused with diagnostics; none may crash, hang or exhaust memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLLint(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    guard let file = try? SchemaSource.parseYAML(data, file: "fuzz.yaml") else { return 0 }
    let findings = Linter().lint(file.schema)
    // Rendering escapes what the file held (defect 6): exercise it too.
    _ = DiagnosticRenderer(format: .text, command: "lint").render(findings)
    _ = DiagnosticRenderer(format: .github, command: "lint").render(findings)
    return 0
}

runFuzzer(fuzzYAMLLint)
