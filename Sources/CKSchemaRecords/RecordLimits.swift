import Foundation
import CKSchemaDiagnostics
import CKSchemaModel

/// The limits CloudKit applies across records rather than within one: deleteSelf references
/// to one target, the size of an asset file, the operations of one Web Services request.
/// `validate` and `records import` both apply them through this type.
///
/// Source: CloudKit Web Services Reference, "Data Size Limits" (PropertyMetrics.html):
/// "Maximum number of operations in a request: 200", "Maximum file size of an Asset field:
/// 50 MB", "Maximum number of source references to a single target where the action is delete
/// self: 750"; CKRecord.Reference repeats the 750.
package enum RecordLimits {
    /// deleteSelf references to one target record.
    package static let maxDeleteSelfReferences = 750
    /// Bytes in one asset file (50 MB, as the Data Size Limits table gives it: 50 x 2^20).
    package static let maxAssetBytes: Int64 = 50 * 1_048_576
    /// Operations in one records/modify request of CloudKit Web Services.
    package static let maxWebServicesOperations = 200

    /// CK418 at the reference `i` of `list` that takes its target past the limit, for the
    /// record numbered `number` (named as every record finding is), at `line` of `file`.
    package static func deleteSelfDiagnostic(_ list: DeleteSelfList, _ i: Int, number: Int, file: String, line: Int) -> Diagnostic {
        let ref = list.refs[i]
        return Diagnostic(rule: RecordsRules.deleteSelfLimit,
                   ValidationRun.compose(number: number, list.recordName(i), ref.field,
                       "record '\(ControlCharacters.escaped(list.targetName(i)))' already has \(maxDeleteSelfReferences) references with the deleteSelf action; CloudKit allows at most \(maxDeleteSelfReferences) to one target and refuses this save"),
                   at: SourceLocation(file: file, line: line, column: ref.column),
                   fix: "use the NONE action for the references beyond 750 and delete those records yourself, or point them at more than one parent")
    }

    /// The size of an asset file a record names, resolved against the folder of the record file
    /// (`recordFile`; the current folder for standard input). nil when there is no such file:
    /// only a file that exists is measured.
    package static func assetSize(_ path: String, recordFile: String) -> Int64? {
        guard !path.isEmpty, !path.utf8.contains(0) else { return nil }
        var resolved = path
        if !path.hasPrefix("/"), recordFile != "-", recordFile != "<stdin>" {
            let folder = (recordFile as NSString).deletingLastPathComponent
            if !folder.isEmpty { resolved = folder + "/" + path }
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? NSNumber else { return nil }
        return size.int64Value
    }

    /// CK419 for an asset file over 50 MB (resolved against the folder of `file`), or nil, for
    /// the record numbered `number`, at `line` of `file`.
    package static func assetDiagnostic(_ asset: AssetPath, number: Int, file: String, line: Int) -> Diagnostic? {
        guard let size = assetSize(asset.path, recordFile: file), size > maxAssetBytes else { return nil }
        return Diagnostic(rule: RecordsRules.assetTooLarge,
                          ValidationRun.compose(number: number, asset.place.recordName, asset.place.field,
                              "the asset file '\(ControlCharacters.escaped(asset.path))' is \(size) bytes; CloudKit's limit is 50 MB (\(maxAssetBytes) bytes) per asset"),
                          at: SourceLocation(file: file, line: line, column: asset.place.column),
                          fix: "split the file, compress it, or keep it outside CloudKit")
    }
}
