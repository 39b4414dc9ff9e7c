import Foundation
import CKSchemaCKDB
import CKSchemaModel

/// Maps a line of the `.ckdb` text push sent back to the schema source that produced it.
///
/// The export is read back (`CKDBSource.parse` gives each record type and field the line it
/// is on); the element on the named line, or the last one that starts before it, is looked up
/// by name in the source schema, whose origin is the YAML, `.ckdb`, Core Data or Swift line.
public struct ExportLineMap: Sendable {
    /// The label of the exported text in a diagnostic no source line could be found for.
    public static let label = "<ckschema push export>"

    let source: Schema
    /// The export read back; nil when it does not parse (then only the export's line is given).
    let exported: Schema?

    public init(source: Schema, exportText: String) {
        self.source = source
        self.exported = try? CKDBSource.parse(Data(exportText.utf8), file: Self.label)
    }

    /// The source location for line `line`, column `column` of the export.
    public func location(line: Int, column: Int) -> SourceLocation {
        let exportPlace = SourceLocation(file: Self.label, line: line, column: column)
        guard let exported else { return exportPlace }
        var best: (line: Int, type: String, field: String?)?
        for t in exported.recordTypes {
            if let l = t.origin.location?.line, l <= line, l > (best?.line ?? 0) { best = (l, t.name, nil) }
            for f in t.fields {
                if let l = f.origin.location?.line, l <= line, l > (best?.line ?? 0) { best = (l, t.name, f.name) }
            }
        }
        guard let best, let type = source.recordType(named: best.type) else { return exportPlace }
        if let name = best.field, let field = type.fields.first(where: { $0.name == name }), let at = field.origin.location { return at }
        return type.origin.location ?? exportPlace
    }

    /// The line and column cktool names in a message such as `Encountered " <IDENTIFIER>
    /// "BADTYPE "" at line 6, column 25.`; nil when it names none. Digits are bounded, so a
    /// hostile message cannot make the number trap.
    public static func position(in message: String) -> (line: Int, column: Int)? {
        guard let r = message.range(of: "at line ") else { return nil }
        let rest = message[r.upperBound...]
        let lineDigits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !lineDigits.isEmpty, lineDigits.count <= 9, let line = Int(lineDigits) else { return nil }
        var column = 1
        let after = rest.dropFirst(lineDigits.count)
        if after.hasPrefix(", column ") {
            let digits = after.dropFirst(", column ".count).prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.count <= 9, let c = Int(digits) { column = c }
        }
        return (line, max(column, 1))
    }
}
