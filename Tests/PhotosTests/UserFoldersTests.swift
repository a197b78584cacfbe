@testable import Photos
import XCTest

final class UserFoldersTests: XCTestCase {
    func testUserDirsLinesAreReadAsTheSpecWritesThem() {
        let home = URL(fileURLWithPath: "/home/ada", isDirectory: true)
        let text = """
            # This file is written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_PICTURES_DIR="$HOME/Bilder"
            XDG_VIDEOS_DIR="/srv/media/videos"
            XDG_MUSIC_DIR="$HOME/"
            XDG_TEMPLATES_DIR=unquoted
            """
        let folders = UserFolders.parse(text, home: home)
        XCTAssertEqual(folders["XDG_PICTURES_DIR"]?.path, "/home/ada/Bilder")
        XCTAssertEqual(folders["XDG_VIDEOS_DIR"]?.path, "/srv/media/videos")
        XCTAssertNil(folders["XDG_MUSIC_DIR"], "the home folder itself means the folder is disabled")
        XCTAssertNil(folders["XDG_TEMPLATES_DIR"])
    }

    func testFoldersFallBackToPicturesAndVideosInHome() {
        let folders = UserFolders.current(environment: ["HOME": "/nonexistent/home"])
        XCTAssertEqual(folders.pictures.path, "/nonexistent/home/Pictures")
        XCTAssertEqual(folders.videos.path, "/nonexistent/home/Videos")
    }
}
