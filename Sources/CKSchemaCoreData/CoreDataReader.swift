import Foundation
import CKSchemaDiagnostics
import CKSchemaModel

/// Reads a Core Data model: a `.xcdatamodeld` bundle (its `.xccurrentversion` names the
/// current version) or one `.xcdatamodel` folder, whose `contents` file is Xcode's XML.
///
/// The XML is read by `ModelXMLReader`, our own bounded reader of the subset Xcode writes
/// (docs/coredata.md, "Reading contents"). Every element keeps its `line:col` in `contents`.
public enum CoreDataReader {
    /// The largest `contents` file read (a 500-entity model is about 4 MB).
    static let maxFileSize = InputFile.schemaLimit
    /// The largest `.xccurrentversion` read (Xcode writes about 300 bytes).
    static let maxVersionMarkerSize = 64 * 1024

    /// True when a path names a Core Data model (`.xcdatamodeld` or `.xcdatamodel`).
    public static func isModel(path: String) -> Bool {
        let p = trimmed(path).lowercased()
        return p.hasSuffix(".xcdatamodeld") || p.hasSuffix(".xcdatamodel")
    }

    /// Loads a model and maps it to the CloudKit schema NSPersistentCloudKitContainer mirrors.
    public static func loadSchema(path: String, selection: ModelSelection = ModelSelection()) throws(InputError) -> Schema {
        let (contents, name) = try contentsFile(path: path, version: selection.version)
        let data = try InputFile.read(path: contents, limit: maxFileSize)
        var schema = try CoreDataMapping.schema(for: try parse(data, file: contents, versionName: name), configuration: selection.configuration)
        schema.suppressions = SuppressionList(Suppression.scan(data, file: contents))
        return schema
    }

    /// Reads the model version `version` names (nil: the current one) from a model path.
    public static func load(path: String, version: String? = nil) throws(InputError) -> CoreDataModel {
        let (contents, name) = try contentsFile(path: path, version: version)
        let data = try InputFile.read(path: contents, limit: maxFileSize)
        return try parse(data, file: contents, versionName: name)
    }

    private static func trimmed(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        return String(p)
    }

    private static func error(_ rule: RuleInfo, _ message: String, _ file: String, line: Int = 1, column: Int = 1, fix: String? = nil) -> InputError {
        InputError(.error(rule, message, at: SourceLocation(file: file, line: line, column: column), fix: fix))
    }

    /// The `contents` file of the chosen version, and the version's name.
    static func contentsFile(path given: String, version: String?) throws(InputError) -> (String, String) {
        let path = trimmed(given)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
            throw error(InputRules.unreadable, "no Core Data model folder '\(path)'", path,
                        fix: "a model is a folder (App.xcdatamodeld or App.xcdatamodel); check the path")
        }
        let fm = FileManager.default
        if path.lowercased().hasSuffix(".xcdatamodel") {
            if let version { throw error(CoreDataRules.version, "--model-version '\(version)' needs a versioned model (.xcdatamodeld); '\(path)' is one version", path) }
            let contents = (path as NSString).appendingPathComponent("contents")
            guard fm.fileExists(atPath: contents) else {
                throw error(CoreDataRules.version, "the model version '\(path)' has no 'contents' file", path, fix: "save the model in Xcode, or name the .xcdatamodel folder Xcode wrote")
            }
            return (contents, ((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        }
        let names = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).filter { $0.lowercased().hasSuffix(".xcdatamodel") }
            .sorted { ($0 as NSString).deletingPathExtension < ($1 as NSString).deletingPathExtension }
        func versionFile(_ name: String) -> String {
            let folder = name.lowercased().hasSuffix(".xcdatamodel") ? name : name + ".xcdatamodel"
            return folder
        }
        let listed = names.map { "'" + ($0 as NSString).deletingPathExtension + "'" }.joined(separator: ", ")
        var chosen: String
        if let version {
            chosen = versionFile(version)
            guard names.contains(chosen) else {
                throw error(CoreDataRules.version, "the model '\(path)' has no version '\(version)'" + (names.isEmpty ? "" : "; it has \(listed)"), path,
                            fix: "pass one of its versions to --model-version")
            }
        } else {
            let marker = (path as NSString).appendingPathComponent(".xccurrentversion")
            if fm.fileExists(atPath: marker) {
                // Xcode writes about 300 bytes; a larger file is read no further (a 37.5 MB
                // property list took 518 MB to parse).
                if let size = (try? fm.attributesOfItem(atPath: marker))?[.size] as? Int, size > maxVersionMarkerSize {
                    throw error(CoreDataRules.version, ".xccurrentversion is \(TextBytes.formatBytes(size)); Xcode writes a few hundred bytes and the limit is \(TextBytes.formatBytes(maxVersionMarkerSize))", marker,
                                fix: "set the current version in Xcode (Model Version in the File inspector), or pass --model-version")
                }
                guard let data = fm.contents(atPath: marker),
                      let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                      let current = plist["_XCCurrentVersionName"] as? String, !current.isEmpty else {
                    throw error(CoreDataRules.version, ".xccurrentversion is not a property list naming the current version (_XCCurrentVersionName)", marker,
                                fix: "set the current version in Xcode (Model Version in the File inspector), or pass --model-version")
                }
                chosen = current
                guard names.contains(chosen) else {
                    throw error(CoreDataRules.version, ".xccurrentversion names the version '\(current)', which '\(path)' does not have" + (names.isEmpty ? "" : "; it has \(listed)"), marker,
                                fix: "set the current version in Xcode, or pass --model-version with one of its versions")
                }
            } else if names.count == 1 {
                chosen = names[0]
            } else if names.isEmpty {
                throw error(CoreDataRules.version, "the model '\(path)' holds no version (.xcdatamodel folder)", path,
                            fix: "add a model version in Xcode, or name the right folder")
            } else {
                throw error(CoreDataRules.version, "the model '\(path)' has \(names.count) versions (\(listed)) and no .xccurrentversion naming the current one", path,
                            fix: "pass --model-version NAME, or set the current version in Xcode")
            }
        }
        return try contentsFile(path: (path as NSString).appendingPathComponent(chosen), version: nil)
    }

    /// Parses a `contents` file with the model's own XML reader (ModelXMLReader). Throws
    /// CK601 for anything that is not a Core Data model's XML: not UTF-8, a DTD or entity,
    /// malformed, truncated, or without a <model> element.
    public static func parse(_ data: Data, file: String, versionName: String) throws(InputError) -> CoreDataModel {
        let builder = ContentsParser(file: file, versionName: versionName, data: data)
        let fix = "open the model in Xcode and save it again, or restore the file from version control"
        if let bad = TextBytes.firstInvalidUTF8(data) {
            throw InputError(Diagnostic(rule: CoreDataRules.xml, "'contents' is not UTF-8 (byte 0x\(String(builder.bytes[bad], radix: 16, uppercase: true)))",
                                    at: builder.origin(bad).location, fix: fix))
        }
        var reader = ModelXMLReader(builder.bytes)
        do throws(ModelXMLReader.Failure) {
            while builder.failure == nil, let event = try reader.next() {
                switch event {
                case let .start(name, attributes, offset): builder.start(name, attributes, at: builder.origin(offset))
                case let .end(name): builder.end(name)
                }
            }
        } catch {
            if error.truncated, builder.model != nil {
                throw InputError(Diagnostic(rule: CoreDataRules.xml, "'contents' ends before </model>; the file is truncated",
                                        at: SourceLocation(file: file, line: builder.lineStarts.count, column: 1),
                                        fix: "restore the file from version control, or save the model again in Xcode"))
            }
            if error.message == ModelXMLReader.noElement {
                throw InputError(Diagnostic(rule: CoreDataRules.xml, "'contents' has no <model> element; it is not a Core Data model", at: builder.origin(0).location,
                                        fix: "name the .xcdatamodel folder Xcode wrote"))
            }
            throw InputError(Diagnostic(rule: CoreDataRules.xml, "'contents' " + (error.malformed ? "is not well-formed XML: it " : "") + error.message, at: builder.origin(error.offset).location, fix: error.fix ?? fix))
        }
        if let failure = builder.failure { throw InputError(failure) }
        guard let model = builder.model else {
            throw error(CoreDataRules.xml, "'contents' has no <model> element; it is not a Core Data model", file,
                        fix: "name the .xcdatamodel folder Xcode wrote")
        }
        return model
    }
}

/// Builds a `CoreDataModel` from the reader's events, with the start of each element's tag.
private final class ContentsParser {
    let file: String
    let versionName: String
    let bytes: [UInt8]
    /// Byte offset of the start of each line (line 1 at index 0).
    var lineStarts: [Int] = [0]
    var model: CoreDataModel?
    var failure: Diagnostic?
    var entity: CoreDataModel.Entity?
    var configuration: CoreDataModel.Configuration?
    var constraint: (properties: [String], origin: Origin)?
    var depth = 0

    init(file: String, versionName: String, data: Data) {
        self.file = file
        self.versionName = versionName
        self.bytes = [UInt8](data)
        for (i, b) in bytes.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
    }

    /// The line and column (in Unicode scalars) of a byte offset: the one place offsets
    /// become locations.
    func origin(_ at: Int) -> Origin {
        let offset = min(max(at, 0), bytes.count)
        // The line holding `offset` (binary search over the line starts).
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var column = 1
        var i = lineStarts[lo]
        while i < offset {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return Origin(SourceLocation(file: file, line: lo + 1, column: column))
    }

    func fail(_ rule: RuleInfo, _ message: String, at origin: Origin, fix: String? = nil) {
        guard failure == nil else { return }
        failure = .error(rule, message, at: origin.location, fix: fix)
    }

    func start(_ name: String, _ a: [String: String], at o: Origin) {
        depth += 1
        func yes(_ key: String) -> Bool { a[key] == "YES" }
        switch name {
        case "model":
            guard model == nil, depth == 1 else { return fail(CoreDataRules.xml, "a second <model> element", at: o) }
            model = CoreDataModel(file: file, versionName: versionName, usedWithCloudKit: yes("usedWithCloudKit"), origin: o)
        case "entity":
            guard model != nil, entity == nil else { return fail(CoreDataRules.xml, "<entity> outside <model>", at: o) }
            guard let n = a["name"], !n.isEmpty else { return fail(CoreDataRules.xml, "an <entity> without a name", at: o, fix: "name the entity in Xcode") }
            var e = CoreDataModel.Entity(name: n, origin: o)
            e.parent = a["parentEntity"]
            e.isAbstract = yes("isAbstract")
            e.renamingIdentifier = a["elementID"]
            entity = e
        case "attribute":
            guard entity != nil else { return }
            guard let n = a["name"], !n.isEmpty else { return fail(CoreDataRules.xml, "an <attribute> without a name", at: o) }
            var attr = CoreDataModel.Attribute(name: n, type: a["attributeType"] ?? "Undefined", origin: o)
            attr.isOptional = yes("optional")
            attr.hasDefault = a["defaultValueString"] != nil || a["defaultDateTimeInterval"] != nil
            attr.isTransient = yes("transient")
            attr.allowsCloudEncryption = yes("allowsCloudEncryption")
            attr.renamingIdentifier = a["elementID"]
            entity?.attributes.append(attr)
        case "relationship":
            guard entity != nil else { return }
            guard let n = a["name"], !n.isEmpty else { return fail(CoreDataRules.xml, "a <relationship> without a name", at: o) }
            guard let d = a["destinationEntity"], !d.isEmpty else {
                return fail(CoreDataRules.missingEntity, "relationship '\(n)' has no destination entity", at: o, fix: "choose its destination in Xcode")
            }
            var r = CoreDataModel.Relationship(name: n, destination: d, origin: o)
            r.inverseName = a["inverseName"]
            r.isOptional = yes("optional")
            // Xcode writes toMany="YES" for a to-many; maxCount="1" is a to-one.
            r.isToMany = yes("toMany") && a["maxCount"] != "1"
            r.isOrdered = yes("ordered")
            r.isTransient = yes("transient")
            r.renamingIdentifier = a["elementID"]
            if let rule = a["deletionRule"] { r.deleteRule = CoreDataModel.DeleteRule(rawValue: rule) ?? .nullify }
            entity?.relationships.append(r)
        case "uniquenessConstraint":
            if entity != nil { constraint = ([], o) }
        case "constraint":
            if constraint != nil, let v = a["value"] { constraint?.properties.append(v) }
        case "configuration":
            guard model != nil else { return }
            var c = CoreDataModel.Configuration(name: a["name"] ?? "", origin: o)
            c.usedWithCloudKit = yes("usedWithCloudKit")
            configuration = c
        case "memberEntity":
            if configuration != nil, let n = a["name"] { configuration?.members.append(n) }
        default: break
        }
    }

    func end(_ name: String) {
        depth -= 1
        switch name {
        case "entity":
            if let e = entity { model?.entities.append(e) }
            entity = nil
        case "uniquenessConstraint":
            if let c = constraint { entity?.uniquenessConstraints.append(c) }
            constraint = nil
        case "configuration":
            if let c = configuration { model?.configurations.append(c) }
            configuration = nil
        default: break
        }
    }
}
