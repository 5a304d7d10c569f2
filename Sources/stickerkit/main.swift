print("stickerkit")
