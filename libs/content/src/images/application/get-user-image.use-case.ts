import { Injectable } from '@nestjs/common';
import { NotFoundError, ObjectStorage, type StoredObject } from '#core';
import { ASSET_PATH_PREFIX, assetName, storageKeyOf } from '../domain/image-source.js';

export interface UserImage extends StoredObject {
  /** The content hash: a strong validator that never changes for the name. */
  readonly sha256: string;
}

/** A stored article image by its file name (`<sha256>.<ext>`), for readers' browsers. */
@Injectable()
export class GetUserImageUseCase {
  constructor(private readonly storage: ObjectStorage) {}

  async execute(name: string): Promise<UserImage> {
    const valid = assetName(name);
    const object = valid ? await this.storage.get(storageKeyOf(`${ASSET_PATH_PREFIX}${valid}`)) : null;
    if (!object) throw new NotFoundError('Image', name);
    return { ...object, sha256: name.slice(0, 64) };
  }
}
