import CKSchemaDiagnostics
import CKSchemaModel

/// `ckschema fmt`: the canonical text of a YAML schema file, comments kept.
public enum SchemaFormatter {
    public static let notFormatted = RuleInfo(
        code: "CK020", name: "not-formatted",
        summary: "A YAML schema file is not in the canonical form that 'ckschema fmt' writes.",
        defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")

    /// The canonical text of a loaded file.
    public static func format(_ file: SchemaFile) -> String {
        SchemaEmitter.emit(file.schema, comments: file.comments, keyLines: file.keyLines)
    }

    /// A diagnostic at the first line that differs, or nil when the file is formatted.
    public static func difference(_ file: SchemaFile, formatted: String) -> Diagnostic? {
        guard formatted != file.text else { return nil }
        let a = file.text.split(separator: "\n", omittingEmptySubsequences: false)
        let b = formatted.split(separator: "\n", omittingEmptySubsequences: false)
        var line = 1
        while line <= min(a.count, b.count), a[line - 1] == b[line - 1] { line += 1 }
        let expected = line <= b.count ? String(b[line - 1]) : ""
        return Diagnostic(rule: notFormatted, "the file is not formatted; line \(line) should read '\(expected)'", at: SourceLocation(file: file.path, line: line, column: 1), fix: "run 'ckschema fmt --write \(file.path)'")
    }
}
