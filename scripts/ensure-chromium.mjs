console.log("chromium check placeholder")
