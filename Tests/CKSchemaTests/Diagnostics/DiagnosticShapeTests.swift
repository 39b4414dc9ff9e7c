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

/// One rule shape: a finding is made from its rule's info (`Diagnostic(rule:)`), which gives
/// the code and the default severity, so the two cannot come apart.
@Suite struct DiagnosticShapeTests {
    @Test func aFindingTakesCodeAndSeverityFromItsRule() {
        let note = Diagnostic(rule: RecordsRules.inferredField, "not in the schema", at: nil)
        #expect(note.code == "CK416" && note.severity == .note)
        let warning = Diagnostic(rule: CKDBRules.notExpressible, "dropped", at: nil, fix: "keep it")
        #expect(warning.code == CKDBRules.notExpressible.code && warning.severity == CKDBRules.notExpressible.defaultSeverity && warning.fix == "keep it")
        #expect(Diagnostic(rule: CloudKitRule.invalidName.info, "bad", at: nil).code == "CK101")
    }

    /// Where a severity is decided at run time (ckschema.yaml's settings, a plan's class, a
    /// finding carried over from a checker thread), the memberwise initializer is used; nowhere
    /// else does library code spell a code next to a severity.
    @Test func onlyRunTimeSeveritiesUseTheMemberwiseInitializer() throws {
        let allowed: Set<String> = [
            "CKSchemaDiagnostics/Diagnostic.swift",   // the initializers themselves
            "CKSchemaLinter/LintRules.swift",           // lint.severity in ckschema.yaml
            "CKSchemaDiff/PromotionStep.swift",       // the step's class, after promote: settings
            "CKSchemaPredicate/QueryPredicate.swift",      // the caller's severity for a predicate finding
            "CKSchemaRecords/ValidationRun.swift",    // a checker thread's finding, placed in its file
            "CKSchemaRuntime/ImportRun.swift",        // the same, for records import
            "CKSchemaMigrations/Migrator.swift",      // a stale lock taken over: a note of the lock rule
        ]
        // Every layer target of the library (`Sources/CKSchema*`), paths from `Sources/`.
        let root = Paths.root + "/Sources"
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }
            .filter { $0.hasPrefix("CKSchema") && $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 100)
        for f in files where !allowed.contains(f) {
            let text = try String(contentsOfFile: root + "/" + f, encoding: .utf8)
            // (`PendingDiagnostic` carries a rule's code and severity between threads: not this.)
            #expect(text.range(of: #"(^|[^A-Za-z])Diagnostic\(code:"#, options: .regularExpression) == nil,
                    "\(f) builds a Diagnostic from a code; use Diagnostic(rule:)")
            // `.error(rule, ...)` forces a rule to be an error: only for a rule passed in (a
            // reader's grammar rule, a data step's), never a named one, whose default says.
            #expect(text.range(of: #"\.error\(\s*[A-Z][A-Za-z]*\.[a-z][A-Za-z]*\s*,"#, options: .regularExpression) == nil,
                    "\(f) reports a named rule as an error; use Diagnostic(rule:), which takes its default severity")
        }
    }
}
