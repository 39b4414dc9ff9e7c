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

    /// Counts deleteSelf references per target; a referring record saved again replaces every
    /// reference it held before (CloudKit replaces the whole record), so re-importing a record
    /// does not count it twice, and a record that now points elsewhere no longer counts against
    /// its old target.
    ///
    /// One hash lookup of the referrer and one of each target per save: the nested
    /// `[target: [referrer: count]]` this replaces cost about 16,000 instructions a reference,
    /// 25% of `validate` (Benchmarks/RESULTS.md, issue 36 point 1).
    package struct DeleteSelfCounter {
        /// References to each target (its zone and name, joined by U+0001), over every referrer.
        private var totals: [String: Int] = [:]
        /// What each named referrer held when it was last counted: almost always one target.
        private var byReferrer: [String: Held] = [:]

        private enum Held {
            case one(String, Int)
            case many([(target: String, count: Int)])

            func count(of target: String) -> Int {
                switch self {
                case .one(let t, let n): return t == target ? n : 0
                case .many(let pairs): return pairs.first { $0.target == target }?.count ?? 0
                }
            }
        }

        package init() {}

        /// Counts what one record refers to (`referrer` names the record: zone and name) and
        /// returns nothing, or, when the save would take a target past the limit, the first
        /// reference to each such target; then nothing is counted, as CloudKit refuses the save.
        /// A record without a name (`named: false`: the server names it) is never saved again,
        /// so what it held is not kept.
        package mutating func add<Refs: RandomAccessCollection<DeleteSelfReference>>(_ refs: Refs, from referrer: String, named: Bool = true) -> [DeleteSelfReference]
        where Refs.Index == Int {
            guard !refs.isEmpty else { return [] }
            if refs.count == 1 {
                // Most records hold one deleteSelf reference: no array, no closure, and each
                // key hashed once (the referrer's entry is written first and put back if the
                // save is refused; the target's count is changed through its index).
                let ref = refs[refs.startIndex]
                let before = named ? byReferrer.updateValue(.one(ref.target, 1), forKey: referrer) : nil
                let at = totals.index(forKey: ref.target)
                if (at.map { totals.values[$0] } ?? 0) - (before?.count(of: ref.target) ?? 0) + 1 > maxDeleteSelfReferences {
                    if named { byReferrer[referrer] = before }
                    return [ref]
                }
                if let before {
                    forget(before)
                    totals[ref.target, default: 0] += 1
                } else if let at {
                    totals.values[at] += 1
                } else {
                    totals[ref.target] = 1
                }
                return []
            }
            let before = named ? byReferrer[referrer] : nil
            // This save's references per target, in the order the targets first appear.
            var pairs: [(target: String, count: Int)] = []
            var firsts: [Int] = []
            for k in refs.indices {
                if let i = pairs.firstIndex(where: { $0.target == refs[k].target }) {
                    pairs[i].count += 1
                } else {
                    pairs.append((refs[k].target, 1))
                    firsts.append(k)
                }
            }
            var over: [DeleteSelfReference] = []
            for (i, pair) in pairs.enumerated()
            where (totals[pair.target] ?? 0) - (before?.count(of: pair.target) ?? 0) + pair.count > maxDeleteSelfReferences {
                over.append(refs[firsts[i]])
            }
            guard over.isEmpty else { return over }
            if let before { forget(before) }
            for pair in pairs { totals[pair.target, default: 0] += pair.count }
            if named { byReferrer[referrer] = pairs.count == 1 ? .one(pairs[0].target, pairs[0].count) : .many(pairs) }
            return []
        }

        /// Takes back what a referrer held: it is being saved again.
        private mutating func forget(_ held: Held) {
            switch held {
            case .one(let t, let n): totals[t, default: 0] -= n
            case .many(let pairs): for (t, n) in pairs { totals[t, default: 0] -= n }
            }
        }

        /// References already saved (the store's records), counted before any new record.
        package mutating func preload(target: String, referrer: String, count: Int) {
            totals[target, default: 0] += count
            switch byReferrer[referrer] {
            case nil:
                byReferrer[referrer] = .one(target, count)
            case .one(let t, let n)?:
                byReferrer[referrer] = t == target ? .one(t, n + count) : .many([(t, n), (target, count)])
            case .many(var pairs)?:
                if let i = pairs.firstIndex(where: { $0.target == target }) { pairs[i].count += count } else { pairs.append((target, count)) }
                byReferrer[referrer] = .many(pairs)
            }
        }
    }

    /// CK418 at the reference that takes its target past the limit, for the record numbered
    /// `number` (named as every record finding is), at `line` of `file`.
    package static func deleteSelfDiagnostic(_ ref: DeleteSelfReference, number: Int, file: String, line: Int) -> Diagnostic {
        Diagnostic(rule: RecordsRules.deleteSelfLimit,
                   ValidationRun.compose(number: number, ref.place.recordName, ref.place.field,
                       "record '\(ControlCharacters.escaped(ref.targetName))' already has \(maxDeleteSelfReferences) references with the deleteSelf action; CloudKit allows at most \(maxDeleteSelfReferences) to one target and refuses this save"),
                   at: SourceLocation(file: file, line: line, column: ref.place.column),
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
