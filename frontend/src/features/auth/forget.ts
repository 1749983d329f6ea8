import { api } from '../../app/api';
import type { AppDispatch, RootState } from '../../app/store';
import { publicApi } from '../public/api';

/**
 * Drop every cached response (they may belong to the previous person or admin) except the public
 * config, which the public layout needs to stay on screen. No antd here: the public frame's header
 * (entry chunk) signs people out with it too.
 */
export function forgetPrivateData() {
  return (dispatch: AppDispatch, getState: () => RootState) => {
    const config = publicApi.endpoints.publicConfig.select()(getState()).data;
    dispatch(api.util.resetApiState());
    if (config) dispatch(publicApi.util.upsertQueryData('publicConfig', undefined, config));
  };
}
