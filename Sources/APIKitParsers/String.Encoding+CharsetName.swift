import Foundation

extension String.Encoding {
    /// The encoding's IANA charset name, such as `"UTF-8"` or `"ISO-8859-1"`,
    /// as a `Content-Type` header would spell it; Foundation's description
    /// for encodings without one.
    var charsetName: String {
        switch self {
        case .utf8: "UTF-8"
        case .utf16: "UTF-16"
        case .utf16BigEndian: "UTF-16BE"
        case .utf16LittleEndian: "UTF-16LE"
        case .utf32: "UTF-32"
        case .utf32BigEndian: "UTF-32BE"
        case .utf32LittleEndian: "UTF-32LE"
        case .ascii: "US-ASCII"
        case .isoLatin1: "ISO-8859-1"
        case .isoLatin2: "ISO-8859-2"
        case .windowsCP1250: "windows-1250"
        case .windowsCP1251: "windows-1251"
        case .windowsCP1252: "windows-1252"
        case .windowsCP1253: "windows-1253"
        case .windowsCP1254: "windows-1254"
        case .macOSRoman: "macintosh"
        case .japaneseEUC: "EUC-JP"
        case .shiftJIS: "Shift_JIS"
        case .iso2022JP: "ISO-2022-JP"
        default: description
        }
    }
}
