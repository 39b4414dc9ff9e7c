import Foundation
import CKSchemaDiagnostics
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a Core Data model: a `.xcdatamodeld` bundle (its `.xccurrentversion` names the
/// current version) or one `.xcdatamodel` folder, whose `contents` file is Xcode's XML.
///
/// The XML goes through Foundation's `XMLParser` (FoundationXML on Linux): a real parser,
/// linear, with external entities off. Every element keeps its `line:col` in `contents`.
public enum CoreDataReader {
    /// The largest `contents` file read (a 500-entity model is about 4 MB).
    static let maxFileSize = InputFile.schemaLimit

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

    /// Parses a `contents` file. Throws CK620 for anything that is not a Core Data model's XML.
    public static func parse(_ data: Data, file: String, versionName: String) throws(InputError) -> CoreDataModel {
        let delegate = ContentsParser(file: file, versionName: versionName, data: data)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = delegate
        let ok = parser.parse()
        if !ok || delegate.failure != nil {
            if let failure = delegate.failure { throw InputError(failure) }
            let code = parser.parserError.map { String(($0 as NSError).code) } ?? "?"
            throw error(CoreDataRules.xml, "'contents' is not well-formed XML (XMLParser error \(code))", file, line: max(1, parser.lineNumber), column: max(1, parser.columnNumber),
                        fix: "open the model in Xcode and save it again, or restore the file from version control")
        }
        guard let model = delegate.model else {
            throw error(CoreDataRules.xml, "'contents' has no <model> element; it is not a Core Data model", file,
                        fix: "name the .xcdatamodel folder Xcode wrote")
        }
        guard delegate.modelClosed else {
            // XMLParser on Linux accepts a document that stops early; an unclosed <model> is a truncated file.
            throw error(CoreDataRules.xml, "'contents' ends before </model>; the file is truncated", file, line: delegate.lineStarts.count, column: 1,
                        fix: "restore the file from version control, or save the model again in Xcode")
        }
        return model
    }
}

/// The XMLParser delegate that builds a `CoreDataModel`, with the start of each element's tag.
private final class ContentsParser: NSObject, XMLParserDelegate {
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
    var modelClosed = false

    init(file: String, versionName: String, data: Data) {
        self.file = file
        self.versionName = versionName
        self.bytes = [UInt8](data)
        for (i, b) in bytes.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
    }

    /// Where the tag that just started begins: the parser reports the position after
    /// it, so step back to its `<` and count the column in Unicode scalars.
    func origin(_ parser: XMLParser) -> Origin {
        let line = min(max(parser.lineNumber, 1), lineStarts.count)
        var offset = min(lineStarts[line - 1] + max(parser.columnNumber - 1, 0), bytes.count)
        if offset == bytes.count { offset -= 1 }
        while offset > 0, bytes[offset] != 0x3C { offset -= 1 }
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

    func fail(_ parser: XMLParser, _ rule: RuleInfo, _ message: String, at origin: Origin, fix: String? = nil) {
        guard failure == nil else { return }
        failure = .error(rule, message, at: origin.location, fix: fix)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes a: [String: String] = [:]) {
        depth += 1
        guard depth <= 64 else { return fail(parser, CoreDataRules.xml, "elements are nested deeper than 64 levels; a Core Data model has four", at: origin(parser)) }
        func yes(_ key: String) -> Bool { a[key] == "YES" }
        switch name {
        case "model":
            guard model == nil, depth == 1 else { return fail(parser, CoreDataRules.xml, "a second <model> element", at: origin(parser)) }
            model = CoreDataModel(file: file, versionName: versionName, usedWithCloudKit: yes("usedWithCloudKit"), origin: origin(parser))
        case "entity":
            guard model != nil, entity == nil else { return fail(parser, CoreDataRules.xml, "<entity> outside <model>", at: origin(parser)) }
            let o = origin(parser)
            guard let n = a["name"], !n.isEmpty else { return fail(parser, CoreDataRules.xml, "an <entity> without a name", at: o, fix: "name the entity in Xcode") }
            var e = CoreDataModel.Entity(name: n, origin: o)
            e.parent = a["parentEntity"]
            e.isAbstract = yes("isAbstract")
            e.renamingIdentifier = a["elementID"]
            entity = e
        case "attribute":
            guard entity != nil else { return }
            let o = origin(parser)
            guard let n = a["name"], !n.isEmpty else { return fail(parser, CoreDataRules.xml, "an <attribute> without a name", at: o) }
            var attr = CoreDataModel.Attribute(name: n, type: a["attributeType"] ?? "Undefined", origin: o)
            attr.isOptional = yes("optional")
            attr.hasDefault = a["defaultValueString"] != nil || a["defaultDateTimeInterval"] != nil
            attr.isTransient = yes("transient")
            attr.allowsCloudEncryption = yes("allowsCloudEncryption")
            attr.renamingIdentifier = a["elementID"]
            entity?.attributes.append(attr)
        case "relationship":
            guard entity != nil else { return }
            let o = origin(parser)
            guard let n = a["name"], !n.isEmpty else { return fail(parser, CoreDataRules.xml, "a <relationship> without a name", at: o) }
            guard let d = a["destinationEntity"], !d.isEmpty else {
                return fail(parser, CoreDataRules.missingEntity, "relationship '\(n)' has no destination entity", at: o, fix: "choose its destination in Xcode")
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
            if entity != nil { constraint = ([], origin(parser)) }
        case "constraint":
            if constraint != nil, let v = a["value"] { constraint?.properties.append(v) }
        case "configuration":
            guard model != nil else { return }
            let o = origin(parser)
            var c = CoreDataModel.Configuration(name: a["name"] ?? "", origin: o)
            c.usedWithCloudKit = yes("usedWithCloudKit")
            configuration = c
        case "memberEntity":
            if configuration != nil, let n = a["name"] { configuration?.members.append(n) }
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
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
        case "model": modelClosed = depth == 0
        default: break
        }
    }
}
