print("bundlepress")
