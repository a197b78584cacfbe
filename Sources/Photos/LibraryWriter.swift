import Foundation
import AVFoundation

/// Writes the assets of one change block into the user's folders, all or none.
///
/// Each asset's files get one base name (the first resource's original file name, or
/// `IMG_yyyyMMdd_HHmmss`) that none of its target files has yet, with " 2", " 3", ... added
/// when needed; each file is made with O_EXCL, so nothing is ever overwritten, even by another
/// process writing at the same moment.
struct LibraryWriter {
    let folders: UserFolders

    /// A file written so far, and the file it was moved from (to put back if the change fails).
    private struct Written {
        let url: URL
        let movedFrom: URL?
    }

    func write(_ requests: [PHAssetChangeRequest], albums: [PHAssetCollectionChangeRequest] = []) throws {
        var written: [Written] = []
        var proxies: [(proxy: Data, file: URL)] = []
        var madeFolders: [URL] = []
        var renamed: [(from: URL, to: URL)] = []
        do {
            try prepare(albums, madeFolders: &madeFolders, renamed: &renamed)
            for request in requests {
                let files = try write(request, into: &written, proxies: &proxies, madeFolders: &madeFolders)
                request.placeholderForCreatedAsset?.localIdentifier = files[0].path
                // Further albums hold the same files, hard-linked (copied where a link cannot be made).
                for album in request.albums.dropFirst() {
                    for file in files {
                        let folder = file.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(album.title, isDirectory: true)
                        try makeFolder(folder, madeFolders: &madeFolders)
                        let target = folder.appendingPathComponent(file.lastPathComponent)
                        if link(file.path, target.path) != 0 { try FileManager.default.copyItem(at: file, to: target) }
                        written.append(Written(url: target, movedFrom: nil))
                    }
                }
            }
            for album in albums {
                album.placeholderForCreatedAssetCollection.localIdentifier = PHAssetCollection.identifier(title: album.title, folders: folders)
            }
            // The change is made: proxies whose camera kept their pixels are finished in the background.
            for (proxy, file) in proxies {
                if let finish = DeferredPhotoProcessing.take(proxy: proxy) {
                    Self.finishing.async {
                        Self.replace(file, with: finish)
                        DeferredPhotoProcessing.didFinish()
                    }
                }
            }
        } catch {
            // All or none: take back what this change wrote, and put moved files back.
            for file in written.reversed() {
                if let source = file.movedFrom, rename(file.url.path, source.path) == 0 { continue }
                unlink(file.url.path)
            }
            for folder in madeFolders.reversed() { rmdir(folder.path) }
            for (from, to) in renamed.reversed() { rename(to.path, from.path) }
            throw error
        }
    }

    /// Checks the album requests, makes the new albums' folders and renames those renamed.
    private func prepare(_ albums: [PHAssetCollectionChangeRequest], madeFolders: inout [URL], renamed: inout [(from: URL, to: URL)]) throws {
        for album in albums {
            for title in [album.originalTitle, album.title] {
                guard !title.isEmpty, !title.hasPrefix("."), !title.contains("/"), title.utf8.count <= 255 else {
                    throw PHPhotosError(
                        .invalidResource,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "\"\(title)\" cannot name an album: an album is a folder, named by a title without \"/\" that does not start with \".\"."
                        ])
                }
            }
            guard album.unknownAssets == 0 else {
                throw PHPhotosError(
                    .changeNotSupported,
                    userInfo: [NSLocalizedDescriptionKey: "Only the placeholders of assets the same change block creates can be added to an album here."])
            }
            let existing = [folders.pictures, folders.videos].map { $0.appendingPathComponent(album.originalTitle, isDirectory: true) }
                .filter { FileManager.default.fileExists(atPath: $0.path) }
            if album.creates {
                try makeFolder(folders.pictures.appendingPathComponent(album.title, isDirectory: true), madeFolders: &madeFolders)
            } else if existing.isEmpty {
                throw PHPhotosError(.identifierNotFound, userInfo: [NSLocalizedDescriptionKey: "There is no album \"\(album.originalTitle)\"."])
            }
            guard !album.creates, album.title != album.originalTitle else { continue }
            for folder in existing {
                let target = folder.deletingLastPathComponent().appendingPathComponent(album.title, isDirectory: true)
                guard !FileManager.default.fileExists(atPath: target.path), rename(folder.path, target.path) == 0 else {
                    throw PHPhotosError(
                        .invalidResource, userInfo: [NSLocalizedDescriptionKey: "Cannot rename the album's folder \(folder.path) to \(target.path)."])
                }
                renamed.append((folder, target))
            }
        }
    }

    /// Makes a folder (and those above it) unless it is there, noting it to take back if the change fails.
    private func makeFolder(_ folder: URL, madeFolders: inout [URL]) throws {
        var missing: [URL] = []
        var walk = folder.standardizedFileURL
        while !FileManager.default.fileExists(atPath: walk.path), walk.path != "/" {
            missing.append(walk)
            walk = walk.deletingLastPathComponent()
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw PHPhotosError(
                .libraryVolumeOffline, userInfo: [NSLocalizedDescriptionKey: "Cannot make the folder \(folder.path): \(error.localizedDescription)"])
        }
        madeFolders += missing.reversed()
    }

    /// Writes one asset's resources (into the folders of its first album, if it has one); the URLs of its files.
    private func write(
        _ request: PHAssetChangeRequest, into written: inout [Written], proxies: inout [(proxy: Data, file: URL)], madeFolders: inout [URL]
    ) throws -> [URL] {
        let resources = request.resources
        let types = resources.map { NSNumber(value: $0.type.rawValue) }
        guard !resources.isEmpty, PHAssetCreationRequest.supportsAssetResourceTypes(types) else {
            throw PHPhotosError(
                .invalidResource,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "An asset is one photo (with at most one paired video) or one video; this one has \(resources.map { "\($0.type)" })."
                ])
        }
        // Each resource's bytes are checked before anything is written.
        var plans: [(resource: PendingResource, folder: URL, fileExtension: String)] = []
        for resource in resources {
            let kind = try MediaSniffer.kind(of: resource)
            let isPhoto = resource.type == .photo || resource.type == .photoProxy
            guard isPhoto ? kind.isImage : !kind.isImage else {
                throw PHPhotosError(
                    .invalidResource,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "A \(isPhoto ? "photo" : "video") resource holds \(kind.isImage ? "an image" : "a movie") (\(kind.fileExtension))."
                    ])
            }
            let given = resource.options?.originalFilename.map { ($0 as NSString).pathExtension } ?? ""
            var folder = resource.type == .video ? folders.videos : folders.pictures
            if let album = request.albums.first { folder.appendPathComponent(album.title, isDirectory: true) }
            plans.append((resource, folder, given.isEmpty ? kind.fileExtension : given))
        }
        for folder in Set(plans.map(\.folder)) { try makeFolder(folder, madeFolders: &madeFolders) }
        let base = baseName(for: resources[0], date: request.creationDate ?? Date())
        let targets = try reserve(base: base, plans: plans.map { ($0.folder, $0.fileExtension) }, into: &written)
        for (plan, target) in zip(plans, targets) {
            try fill(target, from: plan.resource, written: &written)
            if plan.resource.type == .photoProxy, case .data(let data) = plan.resource.source { proxies.append((data, target)) }
        }
        return targets
    }

    /// Where proxies are finished, one after another.
    private static let finishing = DispatchQueue(label: "Photos.DeferredPhotoProcessing", qos: .utility)

    /// Makes a proxy's final photo and puts it in the proxy's place: over the proxy when the final
    /// photo has the proxy's extension, otherwise under the proxy's name with its own extension
    /// (never over another file), the proxy then removed. A photo that cannot be finished leaves
    /// the proxy as it is.
    private static func replace(_ proxy: URL, with finish: DeferredPhotoProcessing.Finish) {
        guard let (data, fileExtension) = try? finish() else { return }
        let folder = proxy.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(proxy.lastPathComponent).\(getpid()).finishing")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o644]) else { return }
        defer { unlink(temporary.path) }
        if fileExtension.lowercased() == proxy.pathExtension.lowercased() {
            _ = rename(temporary.path, proxy.path)
            return
        }
        let base = proxy.deletingPathExtension().lastPathComponent
        for number in 1...10_000 {
            let name = number == 1 ? base : "\(base) \(number)"
            let target = folder.appendingPathComponent(name).appendingPathExtension(fileExtension)
            // link fails rather than replace a file that is there.
            if link(temporary.path, target.path) == 0 {
                unlink(proxy.path)
                return
            }
            if errno != EEXIST { return }
        }
    }

    private func baseName(for resource: PendingResource, date: Date) -> String {
        if let name = resource.options?.originalFilename, !name.isEmpty {
            let base = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
            if !base.isEmpty, !base.hasPrefix(".") { return base }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd_HHmmss"
        return "IMG_\(formatter.string(from: date))"
    }

    /// Creates empty files for every target under the first free base name ("base", "base 2", ...), exclusively.
    private func reserve(base: String, plans: [(URL, String)], into written: inout [Written]) throws -> [URL] {
        for number in 1...10_000 {
            let name = number == 1 ? base : "\(base) \(number)"
            var made: [URL] = []
            var taken = false
            for (folder, fileExtension) in plans {
                let url = folder.appendingPathComponent(name).appendingPathExtension(fileExtension)
                let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                if descriptor < 0 {
                    let code = errno
                    for url in made { unlink(url.path) }
                    if code == EEXIST { taken = true; break }
                    throw Self.error(code, "Cannot create \(url.path)")
                }
                close(descriptor)
                made.append(url)
            }
            if !taken {
                written += made.map { Written(url: $0, movedFrom: nil) }
                return made
            }
        }
        throw PHPhotosError(.invalid, userInfo: [NSLocalizedDescriptionKey: "No free file name for \(base)."])
    }

    /// Puts the resource's bytes into its reserved file: written, copied, or moved there.
    private func fill(_ target: URL, from resource: PendingResource, written: inout [Written]) throws {
        switch resource.source {
        case .data(let data):
            try writeAll(data, to: target)
        case .file(let source):
            if resource.options?.shouldMoveFile == true, rename(source.path, target.path) == 0 {
                if let index = written.firstIndex(where: { $0.url == target }) { written[index] = Written(url: target, movedFrom: source) }
                return
            }
            // Copy (also when a move crosses file systems), a megabyte at a time.
            guard let input = FileHandle(forReadingAtPath: source.path) else {
                throw PHPhotosError(.missingResource, userInfo: [NSLocalizedDescriptionKey: "Cannot read \(source.path)."])
            }
            defer { try? input.close() }
            while true {
                let chunk: Data
                do { chunk = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                    throw PHPhotosError(.invalidResource, userInfo: [NSLocalizedDescriptionKey: "Cannot read \(source.path): \(error.localizedDescription)"])
                }
                if chunk.isEmpty { break }
                try writeAll(chunk, to: target, appending: true)
            }
            if resource.options?.shouldMoveFile == true { unlink(source.path) }
        }
    }

    private func writeAll(_ data: Data, to url: URL, appending: Bool = false) throws {
        let descriptor = open(url.path, O_WRONLY | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC))
        guard descriptor >= 0 else { throw Self.error(errno, "Cannot open \(url.path)") }
        defer { close(descriptor) }
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.error(errno, "Cannot write \(url.path)")
                }
                offset += count
            }
        }
    }

    /// PhotoKit's error for a failed system call.
    static func error(_ code: Int32, _ what: String) -> PHPhotosError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT: return PHPhotosError(.notEnoughSpace, userInfo: [NSLocalizedDescriptionKey: "\(what): \(reason)"])
        case EACCES, EPERM, EROFS: return PHPhotosError(.accessRestricted, userInfo: [NSLocalizedDescriptionKey: "\(what): \(reason)"])
        default: return PHPhotosError(.invalidResource, userInfo: [NSLocalizedDescriptionKey: "\(what): \(reason)"])
        }
    }
}
