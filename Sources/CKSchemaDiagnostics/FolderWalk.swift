import Foundation
import CKSchemaModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one walk of a folder of inputs: SwiftData sources, the scan's Swift sources and
/// property lists, a YAML schema folder, the entitlements `init --from-production` searches
/// (the SwiftPM plugins, which cannot import this target, keep a copy of its rules in
/// `Plugins/*/PluginInputs.swift`). It
/// - resolves each folder's real path and searches a real folder once: a link back up
///   (`Models/up -> ..`) is a note, not 2^40 paths (issue 35 point 2);
/// - never leaves the root it was given: a folder whose real path is outside the root's is
///   a note and not searched, unless the user named the link itself as the root;
/// - reports a folder it cannot list as CK001 naming the folder (exit 2), never a silent
///   skip that drops its models (issue 35 point 3);
/// - is bounded: at most `maxEntries` entries and `maxDepth` folders deep, iteratively.
/// Files are given under the path the user gave (not their real paths), sorted.
public enum FolderWalk {
    /// What an entry of a folder is, links followed.
    public enum Kind: Sendable, Equatable {
        case file, folder
        /// A FIFO, a device or a socket: given as a file (its reader says what it is).
        case special
        /// A dangling link, or an entry gone while the walk ran.
        case missing
    }

    /// One entry of a folder listing.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var kind: Kind
        /// True when the entry is a symbolic link (its kind is the target's).
        public var isLink: Bool
        public init(name: String, kind: Kind, isLink: Bool = false) {
            self.name = name
            self.kind = kind
            self.isLink = isLink
        }
    }

    /// A folder that could not be listed, with the system's reason.
    public struct ListingFailure: Error, Sendable {
        public var reason: String
        public init(reason: String) { self.reason = reason }
    }

    /// How folders are read: the system's, or a test's (a folder that fails to list when the
    /// tests run as root, where mode 000 blocks nothing).
    public protocol Reader: Sendable {
        /// The entries of `folder`, any order.
        func entries(of folder: String) throws(ListingFailure) -> [Entry]
        /// The real path of `path` (links resolved), nil when it has none.
        func realPath(_ path: String) -> String?
    }

    /// The system's reader: readdir(3) with the entry types it gives, stat(2) for a link.
    public struct SystemReader: Reader {
        public init() {}

        public func entries(of folder: String) throws(ListingFailure) -> [Entry] {
            guard let dir = opendir(folder) else { throw ListingFailure(reason: String(cString: strerror(errno))) }
            defer { closedir(dir) }
            var out: [Entry] = []
            while true {
                errno = 0
                guard let item = readdir(dir) else {
                    if errno != 0 { throw ListingFailure(reason: String(cString: strerror(errno))) }
                    break
                }
                let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                switch Int32(item.pointee.d_type) {
                case Int32(DT_DIR): out.append(Entry(name: name, kind: .folder))
                case Int32(DT_REG): out.append(Entry(name: name, kind: .file))
                case Int32(DT_LNK): out.append(Entry(name: name, kind: Self.kind(join(folder, name)), isLink: true))
                default: out.append(Entry(name: name, kind: Self.kind(join(folder, name)), isLink: Self.isLink(join(folder, name))))
                }
            }
            return out
        }

        public func realPath(_ path: String) -> String? {
            guard let p = realpath(path, nil) else { return nil }
            defer { free(p) }
            return String(cString: p)
        }

        static func kind(_ path: String) -> Kind {
            var info = stat()
            guard stat(path, &info) == 0 else { return .missing }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            default: return .special
            }
        }

        public static func isLink(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        }
    }

    /// What a walk searches and how far.
    public struct Options: Sendable {
        /// False: the root's own entries only (a YAML schema folder).
        public var recursive: Bool
        /// A folder (by name) never descended into: build products, vendored code.
        public var skipFolder: @Sendable (String) -> Bool
        /// A file (by name) the walk gives.
        public var includeFile: @Sendable (String) -> Bool
        /// At most this many folders below the root.
        public var maxDepth: Int
        /// At most this many entries in all.
        public var maxEntries: Int
        /// True for a best-effort search (`init`'s container search): a folder that cannot be
        /// read and the bounds end the search there, silently, instead of CK001.
        public var bestEffort: Bool

        public init(recursive: Bool = true, skipFolder: @escaping @Sendable (String) -> Bool = { _ in false },
                    includeFile: @escaping @Sendable (String) -> Bool, maxDepth: Int = FolderWalk.maxDepth,
                    maxEntries: Int = FolderWalk.maxEntries, bestEffort: Bool = false) {
            self.recursive = recursive
            self.skipFolder = skipFolder
            self.includeFile = includeFile
            self.maxDepth = maxDepth
            self.maxEntries = maxEntries
            self.bestEffort = bestEffort
        }
    }

    /// The default bounds: deeper or larger trees than any app's sources.
    public static let maxDepth = 256
    public static let maxEntries = 2_000_000

    /// What a walk found.
    public struct Result: Sendable {
        /// The files, under the path given, sorted.
        public var files: [String] = []
        /// CK001 for each folder that could not be read, or a bound passed (exit 2).
        public var errors: [Diagnostic] = []
        /// CK016 for each folder not searched: seen already, or outside the root (`--verbose`).
        public var notes: [Diagnostic] = []
        public init() {}
    }

    /// `name` in `folder`, as `NSString.appendingPathComponent` joins them (`Schemas/` and `a.yaml`
    /// give `Schemas/a.yaml`).
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// Walks the folder `root` (a folder: the caller tells a file from a folder).
    public static func walk(_ root: String, options: Options, reader: any Reader = SystemReader()) -> Result {
        var result = Result()
        func at(_ path: String) -> SourceLocation { SourceLocation(file: path, line: 1, column: 1) }
        func shown(_ path: String) -> String { ControlCharacters.escaped(path) }
        // The root is taken as named: a link given by the user is followed (its target is the root).
        let top = reader.realPath(root) ?? root
        let inside = top == "/" ? "/" : top + "/"
        var seen: [String: String] = [top: root]
        var queue: [(path: String, real: String, depth: Int)] = [(root, top, 0)]
        // Links to folders wait until every plain folder is listed, so a folder reached both
        // ways is given under its own path, not the link's.
        var links: [(path: String, depth: Int)] = []
        var next = 0, nextLink = 0
        var entries = 0
        func enqueue(_ path: String, _ target: String, _ depth: Int) {
            if target != top, !target.hasPrefix(inside) {
                result.notes.append(Diagnostic(rule: InputRules.folderSkipped, "not searched: '\(shown(path))' leads to '\(shown(target))', outside '\(shown(root))'",
                                               at: at(path), fix: "name the folder itself to search it"))
                return
            }
            if let first = seen[target] {
                result.notes.append(Diagnostic(rule: InputRules.folderSkipped, "not searched again: '\(shown(path))' is the folder '\(shown(first))', already searched",
                                               at: at(path)))
                return
            }
            guard depth <= options.maxDepth else {
                if !options.bestEffort {
                    result.errors.append(Diagnostic(rule: InputRules.unreadable, "the folder '\(shown(path))' is more than \(options.maxDepth) folders below '\(shown(root))'; not searched",
                                                    at: at(path), fix: "give a folder nearer the sources"))
                }
                return
            }
            seen[target] = path
            queue.append((path, target, depth))
        }
        walking: while true {
            if next == queue.count {
                guard nextLink < links.count else { break }
                let link = links[nextLink]
                nextLink += 1
                if let target = reader.realPath(link.path) { enqueue(link.path, target, link.depth) }
                continue
            }
            let (folder, real, depth) = queue[next]
            next += 1
            let listing: [Entry]
            do { listing = try reader.entries(of: folder) } catch {
                if !options.bestEffort {
                    result.errors.append(Diagnostic(rule: InputRules.unreadable, "cannot read the folder '\(shown(folder))': \(error.reason)",
                                                    at: at(folder), fix: "make the folder readable (chmod u+rx), or move it out of the inputs"))
                }
                continue
            }
            entries += listing.count
            if entries > options.maxEntries {
                if !options.bestEffort {
                    result.errors.append(Diagnostic(rule: InputRules.unreadable, "the folder '\(shown(root))' holds more than \(options.maxEntries) entries; stopped at '\(shown(folder))'",
                                                    at: at(root), fix: "give the folder of the sources, not one that holds build products or dependencies"))
                }
                break walking
            }
            for entry in listing.sorted(by: { $0.name < $1.name }) {
                let path = join(folder, entry.name)
                switch entry.kind {
                case .file, .special:
                    if options.includeFile(entry.name) { result.files.append(path) }
                case .missing:
                    continue
                case .folder:
                    guard options.recursive, !options.skipFolder(entry.name) else { continue }
                    if entry.isLink { links.append((path, depth + 1)); continue }
                    // A plain folder's real path is its parent's and its name: no call for it.
                    enqueue(path, join(real, entry.name), depth + 1)
                }
            }
        }
        result.files.sort()
        return result
    }
}
