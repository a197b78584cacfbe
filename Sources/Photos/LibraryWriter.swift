import Foundation

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

    func write(_ requests: [PHAssetChangeRequest]) throws {
        var written: [Written] = []
        var proxies: [(proxy: Data, file: URL)] = []
        do {
            for request in requests {
                let first = try write(request, into: &written, proxies: &proxies)
                request.placeholderForCreatedAsset?.localIdentifier = first.path
            }
            // The change is made: proxies whose camera kept their pixels are finished in the background.
            for (proxy, file) in proxies {
                if let finish = DeferredPhotoProcessing.take(proxy: proxy) { Self.finishing.async { Self.replace(file, with: finish) } }
            }
        } catch {
            // All or none: take back what this change wrote, and put moved files back.
            for file in written.reversed() {
                if let source = file.movedFrom, rename(file.url.path, source.path) == 0 { continue }
                unlink(file.url.path)
            }
            throw error
        }
    }

    /// Writes one asset's resources; the URL of its first file.
    private func write(_ request: PHAssetChangeRequest, into written: inout [Written], proxies: inout [(proxy: Data, file: URL)]) throws -> URL {
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
            let folder = resource.type == .video ? folders.videos : folders.pictures
            plans.append((resource, folder, given.isEmpty ? kind.fileExtension : given))
        }
        for folder in Set(plans.map(\.folder)) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw PHPhotosError(
                    .libraryVolumeOffline, userInfo: [NSLocalizedDescriptionKey: "Cannot make the folder \(folder.path): \(error.localizedDescription)"])
            }
        }
        let base = baseName(for: resources[0], date: request.creationDate ?? Date())
        let targets = try reserve(base: base, plans: plans.map { ($0.folder, $0.fileExtension) }, into: &written)
        for (plan, target) in zip(plans, targets) {
            try fill(target, from: plan.resource, written: &written)
            if plan.resource.type == .photoProxy, case .data(let data) = plan.resource.source { proxies.append((data, target)) }
        }
        return targets[0]
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
