/// The media types APIKit sends for common file extensions (``MultipartFile``).
///
/// A fixed table rather than the platform's registry, so that a request is built the same
/// way on every platform. The types are the IANA-registered ones browsers send.
enum MIMETypeTable {
    /// The type for an unknown extension.
    static let fallback = "application/octet-stream"

    /// The media type for a filename's extension; the fallback without one.
    static func mimeType(forFilename filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return fallback }
        return mimeType(forPathExtension: String(filename[filename.index(after: dot)...]))
    }

    /// The type for an extension, compared ASCII case-insensitively.
    static func mimeType(forPathExtension pathExtension: String) -> String {
        types[pathExtension.lowercased()] ?? fallback
    }

    private static let types: [String: String] = [
        // Images
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "svg": "image/svg+xml",
        "heic": "image/heic",
        "heif": "image/heif",
        "avif": "image/avif",
        "bmp": "image/bmp",
        "tif": "image/tiff",
        "tiff": "image/tiff",
        "ico": "image/vnd.microsoft.icon",
        // Documents and text
        "pdf": "application/pdf",
        "txt": "text/plain",
        "md": "text/markdown",
        "csv": "text/csv",
        "tsv": "text/tab-separated-values",
        "html": "text/html",
        "htm": "text/html",
        "css": "text/css",
        "js": "text/javascript",
        "json": "application/json",
        "xml": "application/xml",
        "yaml": "application/yaml",
        "yml": "application/yaml",
        "rtf": "application/rtf",
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        // Archives
        "zip": "application/zip",
        "gz": "application/gzip",
        "tar": "application/x-tar",
        "7z": "application/x-7z-compressed",
        // Audio and video
        "mp3": "audio/mpeg",
        "m4a": "audio/mp4",
        "aac": "audio/aac",
        "wav": "audio/wav",
        "ogg": "audio/ogg",
        "flac": "audio/flac",
        "mp4": "video/mp4",
        "m4v": "video/mp4",
        "mov": "video/quicktime",
        "webm": "video/webm",
        "avi": "video/x-msvideo",
        "mkv": "video/x-matroska",
    ]
}
